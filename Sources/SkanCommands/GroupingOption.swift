import SkanCommandLine
import SkanCompiler
import SkanPostbacks
import SkanSchema

/// `--by`, as `report` and `sql --report` take it: groupings separated by commas, `ad_network_id,campaign` by
/// default (`PostbackGrouping.defaults`).
enum GroupingOption {
    /// One item of `--by`: a grouping of postbacks, or `install_day`, which is not one (a postback's install lies
    /// on one of several days): `report` counts installs by it apart (`InstallDayCohorts`).
    enum Item: Hashable, Sendable {
        case grouping(PostbackGrouping)
        case installDay

        static let installDayName = "install_day"
    }

    static let by = ListOption<Item>(
        "--by", placeholder: "GROUPINGS", default: PostbackGrouping.defaults.map(\.rawValue).joined(separator: ","),
        items: "groupings ("
            + (PostbackGrouping.allCases.map(\.rawValue) + [Item.installDayName + " (report)"]).joined(separator: ", ")
            + ")",
        unique: true, help: "What to group ok postbacks by: the GROUPINGS of 'skanc help report', separated by commas."
    ) { item in
        if item == Item.installDayName { return .success(.installDay) }
        return PostbackGrouping(rawValue: item).map { .success(.grouping($0)) } ?? .failure(ListItemRefusal())
    }
    static let zeroIsNull = CommandOption.flag(
        "--zero-is-null", help: "Count a fine value of 0 as no value, for sources that report a missing value as 0.")

    /// The groupings `arguments` name; a usage error for an unknown, empty or repeated one.
    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> [PostbackGrouping] {
        try (arguments.items(by) ?? []).map { item throws(UsageError) in
            guard case .grouping(let grouping) = item else {
                throw UsageError(
                    message: "--by install_day counts installs by day in 'skanc report' only; group by day here")
            }
            return grouping
        }
    }

    /// A usage error when the groupings need what `versions` lack: `schema_version` needs several.
    static func check(_ groupings: [PostbackGrouping], versions: LiveVersions) throws(UsageError) {
        if groupings.contains(.schemaVersion), versions.schemas.count == 1 {
            throw UsageError(message: "--by schema_version needs versions live together: name them as A.skan,B.skan")
        }
    }
}
