import SkanCompiler
import SkanCore
import SkanPostbacks

/// What the Markdown and HTML reports say in words, written once for both.
extension PostbackReport {
    /// `Game version 2` (or the versions live together).
    var title: String {
        versions.schemas.map { "\($0.name) version \($0.version)" }.joined(separator: ", ")
    }

    /// The first paragraph: lines, ok and not ok rows, the grouping.
    var overview: String {
        let notOKRows = lines - ok
        var text = "\(lines) lines read: \(ok) ok, \(notOKRows) not ok"
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

    /// A group's key as one label: `5239`, or `US / 5239` for several groupings; `(none)` for an empty value.
    static func label(_ key: [GroupValue]) -> String {
        key.map { $0.text ?? "(none)" }.joined(separator: " / ")
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

    /// An amount for reading: two decimals (more when the amount has them and is below 1).
    static func money(_ amount: DecimalAmount) -> String {
        let text = amount.text
        guard let dot = text.firstIndex(of: ".") else { return text + ".00" }
        let fraction = text[text.index(after: dot)...]
        return fraction.count == 1 ? text + "0" : text
    }

    /// `1234.50 (1000.00 to 1500.00) USD`.
    static func interval(_ revenue: Revenue) -> String {
        // No fine value says nothing about revenue: unknown, never 0 (a coarse value may still imply some).
        guard revenue.postbacks > 0 else { return "unknown: no postback of the group shows a fine value" }
        let high = revenue.high.map(money) ?? "no upper bound"
        return "\(money(revenue.mid)) (\(money(revenue.low)) to \(high))" + (revenue.currency.map { " \($0)" } ?? "")
    }

    /// The mid-point per install, to the cent.
    static func perInstall(_ revenue: Revenue) -> String {
        guard revenue.postbacks > 0 else { return "–" }
        let value = revenue.mid.doubleValue / Double(revenue.postbacks)
        let cents = Int((value * 100).rounded())
        return "\(cents / 100).\(String(cents % 100).count == 1 ? "0" : "")\(cents % 100)"
    }
}
