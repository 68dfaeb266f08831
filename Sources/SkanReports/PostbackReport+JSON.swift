import SkanCompiler
import SkanCore
import SkanPostbacks
import SkanSchemaTools

extension PostbackReport {
    /// The report as JSON, the interface for scripts and for the warehouse views' parity:
    /// `{"groups": [{"by": {...}, "postbacks": N, "by_window": {"1": {...}, ...}, "revenue": [...]}],
    /// "not_ok": {STATUS: N}}` with the schema, the grouping and the line counts around them.
    public var json: String {
        let root: JSONValue = .object([
            ("schema", .string(versions.schemas.last!.name)),
            ("versions", .array(versions.schemas.map { .integer($0.version) })),
            ("grouped_by", .array(groupings.map { .string($0.rawValue) })),
            ("zero_is_null", .bool(zeroIsNull)),
            ("lines", .integer(lines)),
            ("ok", .integer(ok)),
            ("groups", .array(groups.map(Self.json))),
            ("not_ok", .object(notOK.map { ($0.status.code, .integer($0.rows)) })),
            ("notes", .array(notes.map(JSONValue.string))),
        ])
        return root.rendered() + "\n"
    }

    private static func json(_ group: Group) -> JSONValue {
        .object([
            ("by", .object(group.by.map { ($0.column.name, .optional($0.text)) })),
            ("postbacks", .integer(group.postbacks)),
            ("by_window", .object(group.windows.map { (String($0.number), json($0)) })),
            ("revenue", .array(group.revenue.map(json))),
        ])
    }

    private static func json(_ window: Window) -> JSONValue {
        .object([
            ("postbacks", .integer(window.postbacks)),
            ("with_fine_value", .integer(window.withFineValue)),
            ("with_coarse_value", .integer(window.withCoarseValue)),
            ("without_value", .integer(window.withoutValue)),
            ("tiers", .object(zip(tierNames, window.tiers).map { ($0, .integer($1)) })),
            (
                "fields",
                .object(window.fields.map { ($0.column, .object($0.cases.map { ($0.name, .integer($0.postbacks)) })) })
            ),
            ("coarse", .object(zip(coarseNames, window.coarse).map { ($0, .integer($1)) })),
        ])
    }

    private static func json(_ revenue: Revenue) -> JSONValue {
        .object([
            ("field", .string(revenue.field)),
            ("currency", .optional(revenue.currency)),
            ("postbacks", .integer(revenue.postbacks)),
            ("low", .decimal(revenue.low.text)),
            ("mid", .decimal(revenue.mid.text)),
            ("high", revenue.high.map { .decimal($0.text) } ?? .null),
            (
                "ranges",
                .array(
                    revenue.ranges.map { range in
                        .object([
                            ("case", .string(range.name)), ("range", .string(range.range)),
                            ("postbacks", .integer(range.postbacks)), ("low", .decimal(range.low.text)),
                            ("mid", .decimal(range.mid.text)), ("high", range.high.map { .decimal($0.text) } ?? .null),
                        ])
                    })
            ),
        ])
    }

    /// The names of the tier counts: `0` to `3`, then `unknown` for postbacks whose fields tell none.
    public static let tierNames = ["0", "1", "2", "3", "unknown"]
    /// The names of the coarse counts.
    public static let coarseNames = CoarseValue.allCases.map(\.rawValue)
}
