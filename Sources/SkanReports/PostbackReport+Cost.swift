import SkanCore
import SkanPostbacks

extension PostbackReport {
    /// A group's spend from a cost file, and what it buys: cost per install (spend over the installs the network
    /// won: window-1 postbacks but contributions and re-engagements) and return on ad spend per revenue field (the
    /// field's revenue over all of the group's installs, its hard bounds and its estimate, over the spend).
    public struct Cost: Sendable {
        /// The spend of the cost rows that match the group, exactly.
        public var spend: DecimalAmount
        /// The rows that matched.
        public var rows: Int
        /// Spend over installs; nil without an install.
        public var perInstall: Double?
        /// Per revenue field, its low, mid and high totals over the spend.
        public var returnOnSpend: [ReturnOnSpend]
    }

    /// One revenue field's return on ad spend over all of a group's installs (every window-1 postback the network
    /// won, whatever its tier): an interval that holds the true ratio whatever the users did (the installs' hard
    /// bounds over the spend: fine values by their ranges, coarse values by what the coarse rules allow, postbacks
    /// without a value at 0 and unbounded), and apart from it an estimate, labelled as one. Every figure is nil
    /// where the spend is 0 or the field's currency is not the spend's (noted).
    public struct ReturnOnSpend: Sendable {
        /// The revenue field.
        public var field: String
        /// The least the installs' revenue can be, over the spend: the true ratio is never below it.
        public var low: Double?
        /// The most it can be, over the spend; nil when an install's revenue has no upper bound (a postback
        /// without a value, an open-ended range): the interval is then open above.
        public var high: Double?
        /// An estimate, not a bound: the fine-value installs at their ranges' mid-points and the others at the
        /// report's estimate for them (`InstallRevenue.Estimate`); nil when there is none to make.
        public var estimate: Double?
    }

    /// The report with `table`'s spend joined to its groups (which `CostTable.problem(with:)` accepts): a row
    /// counts for the group of its network and campaign (rolled up to the grouping's digits), and of its day
    /// when grouped by day. Rows no group has are noted with their spend, as are revenue fields in another
    /// currency than the spend.
    public func withCost(_ table: CostTable) -> PostbackReport {
        var report = self
        report.costCurrency = table.currency
        let network = groupings.firstIndex(of: .adNetworkID)
        let campaign = groupings.firstIndex { $0 != .adNetworkID && $0 != .day }
        let day = groupings.firstIndex(of: .day)
        var spendByKey: [[String?]: (spend: DecimalAmount, rows: Int)] = [:]
        var overflow = false
        for row in table.rows {
            var key: [String?] = Array(repeating: nil, count: groupings.count)
            if let network { key[network] = row.network }
            if let campaign { key[campaign] = table.campaign(of: row, for: groupings[campaign]) }
            if let day { key[day] = row.day }
            let old = spendByKey[key] ?? (DecimalAmount(units: 0, scale: row.spend.scale), 0)
            guard let sum = old.spend.plus(row.spend) else {
                overflow = true
                continue
            }
            spendByKey[key] = (sum, old.rows + 1)
        }
        var matched: Set<[String?]> = []
        for index in report.groups.indices {
            let key = report.groups[index].by.map(\.text)
            guard let (spend, rows) = spendByKey[key] else { continue }
            matched.insert(key)
            report.groups[index].cost = Self.cost(spend, rows: rows, report.groups[index], currency: table.currency)
        }
        let unmatched = spendByKey.filter { !matched.contains($0.key) }
        if !unmatched.isEmpty {
            let rows = unmatched.values.reduce(0) { $0 + $1.rows }
            let zero = DecimalAmount(units: 0, scale: unmatched.first!.value.spend.scale)
            let exact = unmatched.values.reduce(Optional(zero)) { $0?.plus($1.spend) }
            if let exact { report.unmatchedCost = (rows, exact) }
            let spend = unmatched.values.reduce(0.0) { $0 + $1.spend.doubleValue }
            report.notes.append(
                "\(rows) cost row\(rows == 1 ? "" : "s") (\(Self.money(spend, scale: CurrencyMinorUnits.digits(of: table.currency) ?? 2)) \(table.currency)) "
                    + "\(rows == 1 ? "matches" : "match") no group: no ok postback has \(rows == 1 ? "its" : "their") "
                    + "network and campaign\(day == nil ? "" : " on \(rows == 1 ? "its" : "their") day")")
        }
        if overflow { report.notes.append("spend too large to total exactly: some cost rows are left out") }
        for field in columns.revenue where field.currency != nil && field.currency != table.currency {
            report.notes.append(
                "\(field.column) is in \(field.currency!), the spend in \(table.currency): no return on ad spend for it"
            )
        }
        return report
    }

    private static func cost(_ spend: DecimalAmount, rows: Int, _ group: Group, currency: String) -> Cost {
        let installs = group.windows[0].installs
        let amount = spend.doubleValue
        let returns = group.revenue.map { revenue in
            // No fine value, no revenue known: unknown, never 0%.
            // Over every install, never over the fine-value postbacks alone: that ratio reads as a bound and is
            // none (the installs without a fine value made money too).
            let comparable = amount > 0 && (revenue.currency == nil || revenue.currency == currency)
            let installs = revenue.installs
            return ReturnOnSpend(
                field: revenue.field, low: comparable ? installs.low.doubleValue / amount : nil,
                high: comparable ? installs.high.map { $0.doubleValue / amount } : nil,
                estimate: comparable ? installs.estimatedTotal.map { $0.doubleValue / amount } : nil)
        }
        return Cost(
            spend: spend, rows: rows, perInstall: installs > 0 ? amount / Double(installs) : nil,
            returnOnSpend: returns)
    }

    /// A sum or ratio of doubles as money at `scale` decimals; `–` when it does not fit an amount.
    static func money(_ value: Double, scale: Int) -> String {
        DecimalAmount(rounding: value, scale: scale).map { money($0) } ?? "–"
    }
}

extension PostbackReport {
    /// The cost table's header and rows, for Markdown and HTML alike: per group with spend, its installs, spend,
    /// cost per install and each revenue field's return on ad spend (mid, low to high).
    var costTable: (header: [String], rows: [[String]])? {
        guard let currency = costCurrency else { return nil }
        let fields = columns.revenue.map(\.column)
        let header =
            [keyHeading, "installs", "spend (\(currency))", "per install (\(currency))"]
            + fields.map { "return on ad spend, \($0) (all installs: bounds; estimate)" }
        let rows = groups.compactMap { group -> [String]? in
            guard let cost = group.cost else { return nil }
            let returns = fields.map { field in
                guard let ratio = cost.returnOnSpend.first(where: { $0.field == field }), let low = ratio.low else {
                    return "–"
                }
                let bounds =
                    ratio.high.map { "\(Self.ratio(low)) to \(Self.ratio($0))" } ?? "at least \(Self.ratio(low))"
                return bounds + (ratio.estimate.map { "; estimate \(Self.ratio($0))" } ?? "")
            }
            return [
                Self.label(group), String(group.windows[0].installs), Self.money(cost.spend, in: currency),
                cost.perInstall.map {
                    Self.money($0, scale: CurrencyMinorUnits.digits(of: currency) ?? max(2, cost.spend.scale))
                } ?? "–",
            ] + returns
        }
        return (header, rows)
    }

    /// A return on ad spend as a percentage with one decimal: `84.2%`.
    static func ratio(_ value: Double) -> String {
        let tenths = (value * 1000).rounded()
        guard tenths.isFinite, abs(tenths) < 1e15 else { return "–" }
        let whole = Int(tenths)
        return "\(whole / 10).\(abs(whole % 10))%"
    }
}
