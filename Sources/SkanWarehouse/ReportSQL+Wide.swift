import SkanPostbacks
import SkanReports

/// `report_wide`: one row per group and one column per figure, the warehouse's `skanc report --format csv --wide`.
/// The key columns as the CLI names them (`campaign` is `source_identifier` or `campaign_id`, the other NULL),
/// window 1's counts, per revenue field `FIELD_low` and `FIELD_high` (the installs' hard bounds, as doubles), and
/// with a cost table `spend`, `cost_per_install`, `FIELD_roas_low` and `FIELD_roas_high`. The CLI's estimate
/// columns and the names file's `name` are the CLI's alone (a model and a file no view has).
extension ReportSQL {
    /// The wide view's name; it is created after the views it joins.
    static let wideViewName = "report_wide"

    /// Window 1's counts, in the wide CSV's order.
    static let wideCounts = [
        "installs", "contributed", "reengagements", "with_fine_value", "with_coarse_value", "without_value",
    ]

    func wideView() -> String {
        let id = dialect.identifier
        var select: [String] = []
        var named: Set<String> = []
        for grouping in groupings {
            for name in grouping.keyNames where named.insert(name).inserted {
                select.append(
                    grouping == .campaign
                        ? "CASE WHEN g.campaign_column = \(dialect.literal(name)) THEN g.campaign END AS \(id(name))"
                        : "g.\(id(grouping.rawValue)) AS \(id(name))")
            }
        }
        select += Self.wideCounts.map { "w.\($0) AS \($0)" }
        var joins = ["report_windows AS w ON " + matching("w", extra: ["w.window_number = 1"])]
        for (index, field) in columns.revenue.map(\.column).enumerated() {
            let alias = "i\(index)"
            joins.append("report_installs AS \(alias) ON " + matching(alias, field: field))
            select += ["low", "high"].map { "\(alias).\($0) AS \(id(field + "_" + $0))" }
        }
        if costTable != nil {
            joins.append("report_cost AS c ON " + matching("c"))
            select += ["c.spend AS spend", "c.per_install AS cost_per_install"]
            for (index, field) in columns.revenue.map(\.column).enumerated() {
                let alias = "s\(index)"
                joins.append("report_return_on_spend AS \(alias) ON " + matching(alias, field: field))
                select += ["low", "high"].map { "\(alias).\($0) AS \(id(field + "_roas_" + $0))" }
            }
        }
        return "SELECT " + select.joined(separator: ", ") + "\nFROM report_groups AS g"
            + joins.map { "\nLEFT JOIN \($0)" }.joined()
    }

    /// The join of `alias`'s rows to the group `g`: every key column equal (NULL to NULL), the revenue field
    /// `field` when given, and `extra`.
    private func matching(_ alias: String, field: String? = nil, extra: [String] = []) -> String {
        let id = dialect.identifier
        let keys = keyColumns.map { nullSafeEqual("\(alias).\(id($0))", "g.\(id($0))") }
        let fields = field.map { ["\(alias).field = \(dialect.literal($0))"] } ?? []
        return (keys + fields + extra).joined(separator: " AND ")
    }
}
