import SkanCore
import SkanPostbacks

extension PostbackReport {
    /// The report's totals over every group, as the page leads with them: each a label and a figure.
    var totals: [(label: String, figure: String)] {
        let first = groups.map { $0.windows[0] }
        let installs = first.reduce(0) { $0 + $1.installs }
        let won = first.reduce(0) { $0 + $1.won }
        let without = first.reduce(0) { $0 + $1.withoutValue }
        // What a lead acts on first: installs, spend and cost per install, revenue and its return; then the counts
        // that say how the figures were made.
        var items: [(String, String)] = [("installs won", Self.count(installs))]
        var counts: [(String, String)] = [
            ("null rate, window 1", Self.percent(without, of: won)),
            ("contributed", Self.count(first.reduce(0) { $0 + $1.contributed })),
            ("re-engagements", Self.count(first.reduce(0) { $0 + $1.reengagements })),
            ("lines read", Self.count(lines)), ("ok", Self.count(ok)), ("not ok", Self.count(lines - ok)),
        ]
        if let currency = costCurrency {
            let costs = groups.compactMap(\.cost)
            let spend = costs.reduce(0.0) { $0 + $1.spend.doubleValue }
            let costed = groups.filter { $0.cost != nil }.reduce(0) { $0 + $1.windows[0].installs }
            let decimals = CurrencyMinorUnits.digits(of: currency) ?? 2
            items.append(("spend", Self.money(spend, scale: decimals) + " \(currency)"))
            if costed > 0 {
                items.append(
                    ("cost per install", Self.money(spend / Double(costed), scale: decimals) + " \(currency)"))
            }
        }
        for field in columns.revenue {
            let revenues = groups.compactMap { $0.revenue.first { $0.field == field.column } }
            guard let sample = revenues.first else { continue }
            let code = sample.currency
            let currency = code.map { " \($0)" } ?? ""
            let zero = DecimalAmount(units: 0, scale: sample.mid.scale)
            // Over every install: the interval that holds the truth, then an estimate labelled as one (never the
            // fine-value postbacks' mid-points alone, which leave out every install without a fine value).
            if let bounds = Self.bounds(revenues.map(\.installs), zero: zero, currency: code) {
                items.append(("revenue, all installs, \(field.column) (hard bounds)", bounds))
            }
            // Re-engagements' revenue is its own figure, in no figure of installs.
            let reengagements = revenues.compactMap(\.reengagements)
            if !reengagements.isEmpty, let bounds = Self.bounds(reengagements, zero: zero, currency: code) {
                counts.insert(("revenue, re-engagements, \(field.column) (hard bounds)", bounds), at: 3)
            }
            let estimates = revenues.compactMap(\.installs.total)
            if estimates.count == revenues.count, let mid = Self.sum(estimates.map(\.mid), zero),
                let low = Self.sum(estimates.map(\.low), zero)
            {
                // Each group's interval holds its truth at 95%; their sum holds the total's at least as often.
                let highs = estimates.compactMap(\.high)
                let high = highs.count == estimates.count ? Self.sum(highs, zero) : nil
                let interval =
                    "\(Estimate.confidence)% interval \(Self.money(low, in: code, .down)) to "
                    + (high.map { Self.money($0, in: code, .up) } ?? "no upper end")
                items.append(
                    (
                        "revenue, all installs, \(field.column) (estimate, \(estimates[0].method.rawValue))",
                        Self.money(mid, in: code) + currency + " (\(interval))"
                    ))
            }
            if let roas = returnOnSpendTotal(field.column) { items.append(roas) }
        }
        return items + counts
    }

    /// Return on ad spend over every group with spend: the installs' summed bounds (and estimate) over the summed
    /// spend, as the interval and estimate of one group are made.
    private func returnOnSpendTotal(_ field: String) -> (label: String, figure: String)? {
        guard costCurrency != nil else { return nil }
        let costed = groups.filter { $0.cost != nil }
        let spend = costed.reduce(0.0) { $0 + $1.cost!.spend.doubleValue }
        let revenues = costed.compactMap { $0.revenue.first { $0.field == field } }
        guard spend > 0, revenues.count == costed.count, !revenues.isEmpty,
            revenues.allSatisfy({ $0.currency == nil || $0.currency == costCurrency })
        else { return nil }
        let low = revenues.reduce(0.0) { $0 + $1.installs.low.doubleValue } / spend
        let highs = revenues.map(\.installs.high)
        let high = highs.contains { $0 == nil } ? nil : highs.reduce(0.0) { $0 + $1!.doubleValue } / spend
        let estimates = revenues.map(\.installs.estimatedTotal)
        let estimate =
            estimates.contains { $0 == nil } ? nil : estimates.reduce(0.0) { $0 + $1!.doubleValue } / spend
        let bounds = high.map { "\(Self.ratio(low)) to \(Self.ratio($0))" } ?? "at least \(Self.ratio(low))"
        return (
            "return on ad spend, \(field) (all installs)",
            bounds + (estimate.map { "; estimate \(Self.ratio($0))" } ?? "")
        )
    }

    /// The summed hard bounds of `revenues` (`12.00 to 96.00 USD`, or `at least 12.00 USD` when one is
    /// unbounded); nil when a sum does not fit.
    private static func bounds(_ revenues: [InstallRevenue], zero: DecimalAmount, currency code: String?)
        -> String?
    {
        guard let low = sum(revenues.map(\.low), zero) else { return nil }
        let currency = code.map { " \($0)" } ?? ""
        let highs = revenues.map(\.high)
        let high = highs.contains { $0 == nil } ? nil : sum(highs.compactMap { $0 }, zero)
        return high.map { "\(money(low, in: code, .down)) to \(money($0, in: code, .up))\(currency)" }
            ?? "at least \(money(low, in: code, .down))\(currency)"
    }

    /// The totals as the page's first boxes.
    var totalsHTML: String {
        "<div class=\"totals\">\n"
            + totals.map { "<div>\(HTMLText.escaped($0.label))<b>\(HTMLText.escaped($0.figure))</b></div>\n" }.joined()
            + "</div>\n"
    }

    /// `12,345`: a count with thousands separated.
    static func count(_ value: Int) -> String {
        let text = money(DecimalAmount(units: value, scale: 0))
        return String(text.prefix { $0 != "." })
    }

    private static func sum(_ amounts: [DecimalAmount], _ zero: DecimalAmount) -> DecimalAmount? {
        var total = zero
        for amount in amounts {
            guard let next = total.plus(amount) else { return nil }
            total = next
        }
        return total
    }
}
