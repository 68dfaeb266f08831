import SkanPostbacks

/// The cost views (`skanc sql --report --cost-table NAME`): a table of spend with the cost file's columns
/// (`network`, `campaign`, `day`, `spend`, `currency`, as `skanc report --cost` reads them; text, and spend a number
/// or its text) joined to the groups as the CLI joins it: `report_cost` (per group with spend: `spend`, `currency`,
/// `cost_rows`, `installs`, `per_install`) and `report_return_on_spend` (per group and revenue field: `low`,
/// `high`, the hard bounds of `report_installs` over the spend; the CLI's estimate is a model no view keeps).
extension ReportSQL {
    /// The cost views' names, in the order they are created.
    static let costViews = ["report_cost", "report_return_on_spend"]

    /// The cost views' bodies, for `table`.
    func costBodies(_ table: String) -> [String] {
        [costView(table), returnOnSpendView()]
    }

    private func costView(_ table: String) -> String {
        let id = dialect.identifier
        let cast = { (column: String) in "CAST(c.\(id(column)) AS \(dialect.textType))" }
        var on: [String] = []
        for grouping in groupings {
            switch grouping {
            case .adNetworkID: on.append("\(cast("network")) = g.\(id("ad_network_id"))")
            case .day: on.append("substr(\(cast("day")), 1, 10) = g.\(id("day"))")
            case .campaign:
                on.append(
                    "substr(\(cast("campaign")), 1, \(PostbackGrouping.campaignDigits)) = g.\(id("campaign"))")
            default:
                guard let digits = grouping.prefixLength else {
                    on.append("\(cast("campaign")) = g.\(id(grouping.rawValue))")
                    continue
                }
                let campaign = cast("campaign")
                on.append(
                    "CASE WHEN length(\(campaign)) >= \(digits) THEN substr(\(campaign), 1, \(digits)) END = "
                        + "g.\(id(grouping.rawValue))")
            }
        }
        let keys = keyColumns.map { "g.\(id($0))" }
        let installs = keyColumns.map { nullSafeEqual("w.\(id($0))", "g.\(id($0))") } + ["w.window_number = 1"]
        let spend = "SUM(CAST(c.\(id("spend")) AS \(double)))"
        let select =
            keys + [
                "\(spend) AS spend", "MIN(\(cast("currency"))) AS currency", "COUNT(*) AS cost_rows",
                "MAX(w.installs) AS installs",
                "CASE WHEN MAX(w.installs) > 0 THEN \(spend) / MAX(w.installs) END AS per_install",
            ]
        return "SELECT " + select.joined(separator: ", ") + "\nFROM report_groups AS g\nJOIN "
            + dialect.qualifiedIdentifier(table) + " AS c ON " + on.joined(separator: " AND ")
            + "\nJOIN report_windows AS w ON " + installs.joined(separator: " AND ")
            + "\nGROUP BY " + keys.joined(separator: ", ")
    }

    /// Per group with spend and revenue field: the bounds over all installs over the spend; NULL where the spend is
    /// 0 or the field's currency is not the spend's, `high` NULL too where an install's revenue is unbounded.
    private func returnOnSpendView() -> String {
        let id = dialect.identifier
        let keys = keyColumns.map { "k.\(id($0))" }
        let match = keyColumns.map { nullSafeEqual("v.\(id($0))", "k.\(id($0))") }
        let comparable = "k.spend > 0 AND (v.currency IS NULL OR v.currency = k.currency)"
        let select =
            keys + ["v.field"]
            + ["low", "high"].map { "CASE WHEN \(comparable) THEN v.\($0) / k.spend END AS \($0)" }
        return "SELECT " + select.joined(separator: ", ") + "\nFROM report_cost AS k\nJOIN report_installs AS v ON "
            + match.joined(separator: " AND ")
    }
}
