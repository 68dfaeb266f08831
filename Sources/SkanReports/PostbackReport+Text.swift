import SkanCore
import SkanPostbacks
import SkanSchema

/// What the Markdown and HTML reports say in words, written once for both.
extension PostbackReport {
    /// The tiers and coarse values of `window` in words, for the Markdown and HTML pages: a later window's
    /// postbacks are all sent at tiers 1-3 and show none of them, so their `unknown` reads `1-3 (not shown)`.
    static func tierAndCoarseSentence(_ window: Window) -> String {
        let tiers = zip(tierNames, window.tiers).filter { $0.1 > 0 }.map { name, count in
            name == "unknown" && window.number > 1 ? "1-3 (not shown) \(count)" : "\(name) \(count)"
        }
        let coarse = zip(coarseNames, window.coarse).map { "\($0) \($1)" }
        return "Tiers: \(tiers.joined(separator: ", ")). Coarse values: \(coarse.joined(separator: ", "))."
    }

    /// `Game version 2` (or the versions live together).
    var title: String {
        versions.schemas.map { "\($0.name) version \($0.version)" }.joined(separator: ", ")
    }

    /// The first paragraph: lines, ok and not ok rows, the grouping.
    var overview: String {
        let notOKRows = lines - ok
        var text = "\(lines) lines read: \(ok) ok, \(notOKRows) not ok"
        let first = groups.map { $0.windows[0] }
        let (contributed, reengagements) = first.reduce((0, 0)) { ($0.0 + $1.contributed, $0.1 + $1.reengagements) }
        if contributed + reengagements > 0 {
            text += " (of the ok, \(contributed) contributed and \(reengagements) re-engagements in window 1)"
        }
        if !notOK.isEmpty {
            text += " (" + notOK.map { "\($0.status.code) \($0.rows)" }.joined(separator: ", ") + ")"
        }
        text += ". Grouped by " + groupings.map(\.rawValue).joined(separator: ", ")
        text += "; \(groups.count) group\(groups.count == 1 ? "" : "s")."
        if zeroIsNull { text += " A fine value of 0 counts as no value (--zero-is-null)." }
        return text
    }

    /// How the revenue figures are made, stated with them.
    static let revenueMethod =
        "Revenue is range arithmetic on the buckets the postbacks show, not a model: low counts each postback at its "
        + "range's lower bound, high at its upper bound (none when a range is open-ended), mid at the range's "
        + "mid-point (an open-ended range at its lower bound, so mid is then a lower estimate too). Per install "
        + "divides by the postbacks that show the field; postbacks without a fine value show no revenue."

    /// What the group counts are, stated with them.
    static let countsMethod =
        "Installs are the window-1 postbacks the network won; contributed are other installs' postbacks that name "
        + "the network as contributing (did-win false, never a value), re-engagements the won re-engagement "
        + "postbacks: both apart from installs, as the App Reporting Pack keeps them. Value shares are of the won "
        + "postbacks (installs and re-engagements)."

    /// How the cost figures are made, stated with them.
    static let costMethod =
        "Spend is the cost file's rows for the group's network and campaign (and day). Per install divides it by "
        + "the installs the network won (every install sends a window-1 postback, whatever its tier); return on ad spend divides each "
        + "revenue total (the range arithmetic above, over postbacks with a fine value) by it."

    /// What the trend's days are.
    static let trendMethod =
        "Days are those skanc serve received the window-1 postbacks on (UTC), not install days: an install's "
        + "first postback arrives 2 to 4 days after its first launch (report --by install_day gives install days "
        + "as intervals)."

    /// A group's key as one label: `5239`, or `US / 5239` for several groupings; `(none)` for an empty value.
    static func label(_ key: [GroupValue]) -> String {
        key.map { $0.text ?? "(none)" }.joined(separator: " / ")
    }

    /// A group's label: its name from a names file, then its key; its key alone without one.
    static func label(_ group: Group) -> String {
        group.name.map { "\($0) (\(label(group.by)))" } ?? label(group.by)
    }

    /// The heading of the key column(s).
    var keyHeading: String {
        groupings.map(\.rawValue).joined(separator: " / ")
    }

    /// `12.5%`, one decimal; empty of nothing.
    static func percent(_ part: Int, of whole: Int) -> String {
        guard whole > 0 else { return "–" }
        let tenths = (part * 1000 + whole / 2) / whole
        return "\(tenths / 10).\(tenths % 10)%"
    }

    /// An amount as people read money: the currency's own decimals (ISO 4217: 2 for USD, 0 for JPY, 3 for KWD),
    /// moved `rounding`'s way where the amount has more; without a known currency, every amount of a report with
    /// the same number of decimals (at least two, more when a bucket bound has them). Thousands are separated by
    /// commas (`12,345.60`).
    static func money(
        _ amount: DecimalAmount, in currency: String? = nil, _ rounding: DecimalAmount.Rounding = .nearest
    ) -> String {
        let digits = currency.flatMap(CurrencyMinorUnits.digits(of:))
        let amount = digits.map { amount.rounded(toDecimals: $0, rounding) } ?? amount
        let decimals = digits ?? max(2, amount.scale)
        let units = amount.units.magnitude * UInt(DecimalAmount.power(decimals - amount.scale) ?? 1)
        let power = UInt(DecimalAmount.power(decimals) ?? 1)
        let fraction = String(units % power)
        var whole = String(units / power)
        var grouped = ""
        while whole.count > 3 {
            grouped = "," + whole.suffix(3) + grouped
            whole.removeLast(3)
        }
        let text = (amount.units < 0 ? "-" : "") + whole + grouped
        guard decimals > 0 else { return text }
        return text + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }

    /// `1234.50 (1000.00 to 1500.00) USD`.
    static func interval(_ revenue: Revenue) -> String {
        // No fine value says nothing about revenue: unknown, never 0 (a coarse value may still imply some).
        guard revenue.postbacks > 0 else { return "unknown: no postback of the group shows a fine value" }
        let high = revenue.high.map { money($0, in: revenue.currency, .up) } ?? "no upper bound"
        let currency = revenue.currency
        return "\(money(revenue.mid, in: currency)) (\(money(revenue.low, in: currency, .down)) to \(high))"
            + (currency.map { " \($0)" } ?? "")
    }

    /// `interval` for a table cell: the same, but short where nothing is known.
    static func intervalCell(_ revenue: Revenue) -> String {
        revenue.postbacks > 0 ? interval(revenue) : "unknown (no fine value)"
    }

    /// The mid-point per install, rounded half up to the report's decimals, with its currency.
    static func perInstall(_ revenue: Revenue) -> String {
        guard revenue.postbacks > 0 else { return "–" }
        let mid = revenue.mid
        let rounded = (2 * mid.units + revenue.postbacks) / (2 * revenue.postbacks)
        return money(DecimalAmount(units: rounded, scale: mid.scale), in: revenue.currency)
            + (revenue.currency.map { " \($0)" } ?? "")
    }
}

extension PostbackReport {
    /// The hard bounds over all of a group's installs: `1,561.01 to 2,000.00 USD`, or `at least 1,561.01 USD`.
    static func installBounds(_ revenue: Revenue) -> String {
        let installs = revenue.installs
        let currency = revenue.currency.map { " \($0)" } ?? ""
        let low = money(installs.low, in: revenue.currency, .down)
        guard let high = installs.high else { return "at least \(low)\(currency)" }
        return "\(low) to \(money(high, in: revenue.currency, .up))\(currency)"
    }

    /// Where the hard bounds come from, in a sentence.
    static func installSources(_ revenue: Revenue) -> String {
        let installs = revenue.installs
        var parts = ["\(installs.withFineValue) with a fine value (their ranges)"]
        for share in installs.fromCoarse {
            let each =
                share.each.high.map {
                    "\(money(share.each.low, in: revenue.currency, .down)) to \(money($0, in: revenue.currency, .up))"
                } ?? "at least \(money(share.each.low, in: revenue.currency, .down))"
            parts.append(
                "\(share.postbacks) with coarse value \(share.coarse.rawValue) only (each \(each), by the coarse rules)"
            )
        }
        if installs.withoutValue > 0 { parts.append("\(installs.withoutValue) without a value (each at least 0)") }
        return "All \(installs.installs) won window-1 postbacks, hard bounds: \(installBounds(revenue)). From "
            + parts.joined(separator: ", ") + "."
    }

    /// The estimates over every install and over those without a fine value, labelled as a model with its
    /// method.
    static func estimateText(_ revenue: Revenue) -> String? {
        guard let estimate = revenue.installs.estimate ?? revenue.installs.total else { return nil }
        let interval = { (estimate: Estimate) -> String in
            let currency = revenue.currency.map { " \($0)" } ?? ""
            let high = estimate.high.map { money($0, in: revenue.currency, .up) } ?? "no upper end"
            return "\(money(estimate.mid, in: revenue.currency))\(currency) (\(Estimate.confidence)% interval "
                + "\(money(estimate.low, in: revenue.currency, .down)) to \(high))"
        }
        var parts: [String] = []
        if let total = revenue.installs.total {
            parts.append("Estimate for all \(total.installs) installs: \(interval(total)).")
        }
        if let rest = revenue.installs.estimate {
            let from = rest.pooled ? "every group of its network's" : "the group's"
            parts.append(
                "For the \(rest.installs) installs without a fine value: \(interval(rest)), from \(from) "
                    + "fine-value installs with the same coarse value.")
        }
        let method =
            switch estimate.method {
            case .midPoint: "each range at its mid-point (no --amounts prior: biased where amounts crowd in a range)"
            case .prior: "each range at the mean of the --amounts prior's amounts inside it"
            }
        return parts.joined(separator: " ") + " Method: \(method); a model, not a bound."
    }
}
