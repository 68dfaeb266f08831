import SkanCommandLine
import SkanCompiler
import SkanPostbacks
import SkanSchema

/// `--by`, as `report` and `sql --report` take it: groupings separated by commas, `ad_network_id,campaign` by
/// default (`PostbackGrouping.defaults`).
enum GroupingOption {
    static let by = CommandOption.text(
        "--by", placeholder: "GROUPINGS",
        defaultValue: PostbackGrouping.defaults.map(\.rawValue).joined(separator: ","),
        help: "What to group ok postbacks by: the GROUPINGS of 'skanc help report', separated by commas.")
    static let zeroIsNull = CommandOption.flag(
        "--zero-is-null", help: "Count a fine value of 0 as no value, for sources that report a missing value as 0.")

    /// The groupings `arguments` name; a usage error for an unknown, empty or repeated one.
    static func parse(_ arguments: ParsedArguments, command: String) throws(UsageError) -> [PostbackGrouping] {
        guard let groupings = arguments[by].flatMap(PostbackGrouping.list) else {
            throw UsageError(
                message: "--by takes groupings separated by commas, each once: "
                    + PostbackGrouping.allCases.map(\.rawValue).joined(separator: ", "),
                command: command)
        }
        return groupings
    }

    /// A usage error when the groupings need what `versions` lack: `schema_version` needs several.
    static func check(_ groupings: [PostbackGrouping], versions: LiveVersions, command: String) throws(UsageError) {
        if groupings.contains(.schemaVersion), versions.schemas.count == 1 {
            throw UsageError(
                message: "--by schema_version needs versions live together: name them as A.skan,B.skan",
                command: command)
        }
    }
}
