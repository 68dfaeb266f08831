public import SkanCore

extension Schema {
    /// The rules that give `value` in `window`, in words: their conditions joined with `or`; `otherwise` for
    /// the catch-all rule; empty when no rule gives it.
    public func ruleText(for value: CoarseValue, window: ConversionWindow) -> String {
        ruleText(head: value.rawValue, window: window)
    }

    /// The rules whose head is `head` (`low`, `medium`, `high` or `nothing`) in `window`, in words.
    public func ruleText(head: String, window: ConversionWindow) -> String {
        coarseRules(window: window).filter { $0.head == head }.map(\.text).joined(separator: " or ")
    }

    /// A window's coarse rules in words, in order: `high when purchase.count >= 2; low otherwise`.
    public func rulesText(window: ConversionWindow) -> String {
        coarseRules(window: window).map {
            $0.text == "otherwise" ? "\($0.head) otherwise" : "\($0.head) when \($0.text)"
        }.joined(separator: "; ")
    }

    /// A condition written back in the schema language, e.g. `registered or dayOneAction >= addedToCart`;
    /// `otherwise` for the condition that always holds.
    public func text(of condition: Condition) -> String {
        text(of: condition, parentPrecedence: 0)
    }

    /// Precedence: `or` 1, `and` 2, `not` and atoms 3. Parentheses only where the grammar needs them.
    private func text(of condition: Condition, parentPrecedence: Int) -> String {
        switch condition {
        case .always:
            return "otherwise"
        case .flag(let field):
            return fields[field].name
        case .comparison(let field, let op, let code):
            let caseName = fields[field].caseWithCode(code)?.name ?? String(code)
            return "\(fields[field].name) \(op.rawValue) \(caseName)"
        case .event(let event):
            return events[event].name
        case .eventMeasure(let event, let measure, let op, let number):
            return "\(events[event].name).\(measure.rawValue) \(op.rawValue) \(ConditionNumber.text(number))"
        case .hours(let op, let number):
            return "hours \(op.rawValue) \(ConditionNumber.text(number))"
        case .not(let inner):
            return "not " + text(of: inner, parentPrecedence: 3)
        case .all(let parts):
            let joined = parts.map { text(of: $0, parentPrecedence: 2) }.joined(separator: " and ")
            return parentPrecedence > 2 ? "(\(joined))" : joined
        case .any(let parts):
            let joined = parts.map { text(of: $0, parentPrecedence: 1) }.joined(separator: " or ")
            return parentPrecedence > 1 ? "(\(joined))" : joined
        }
    }

}

extension Schema {
    /// How a derived flag or field follows from the activity, in the schema's words: `when sign_up`,
    /// `buckets amount of purchase + ad_revenue within 48 hours`, `purchased when purchase; … ; none otherwise`;
    /// nil for a field the app sets.
    public func derivationText(of field: Field) -> String? {
        switch field.derivation {
        case nil: return nil
        case .flag(let condition): return "when " + text(of: condition)
        case .firstMatch(let conditions):
            return zip(field.cases, conditions).map { fieldCase, condition in
                condition == .always ? "\(fieldCase.name) otherwise" : "\(fieldCase.name) when \(text(of: condition))"
            }.joined(separator: "; ")
        case .buckets(let source): return "buckets " + text(of: source)
        case .count(let source): return text(of: source)
        }
    }

    /// `amount of purchase + ad_revenue within 48 hours`, `count of level_complete in window`, `count of days`.
    public func text(of source: ActivitySource) -> String {
        guard source.measure != .days else { return "count of days" }
        let events = source.events.map { self.events[$0].name }.joined(separator: " + ")
        let scope: String
        switch source.scope {
        case .sinceFirstLaunch: scope = ""
        case .within(let hours): scope = " within \(ConditionNumber.text(hours)) hours"
        case .inWindow: scope = " in window"
        }
        return "\(source.measure.rawValue) of \(events)\(scope)"
    }
}

/// Numbers of conditions and hours, written as the schema language writes them: `2`, `4.99`.
public enum ConditionNumber {
    /// The largest number a schema may write (a condition's count or amount, a bucket bound): the parser refuses
    /// more, and tools that write schemas refuse it at its source.
    public static let largest = 1e15

    /// `2` for a whole number, else Swift's shortest digits written out in positional notation (`4.99`,
    /// `0.000001` rather than `1e-06`): the form the schema language and Swift both read.
    public static func text(_ number: Double) -> String {
        if number == number.rounded() && abs(number) < 1e15 { return String(Int(number)) }
        let shortest = String(number)
        guard number.isFinite, let e = shortest.firstIndex(where: { $0 == "e" || $0 == "E" }),
            let exponent = Int(shortest[shortest.index(after: e)...])
        else { return shortest }
        let mantissa = shortest[..<e]
        let negative = mantissa.hasPrefix("-")
        let unsigned = mantissa.drop { $0 == "-" }
        let point =
            unsigned.firstIndex(of: ".").map { unsigned.distance(from: unsigned.startIndex, to: $0) }
            ?? unsigned.count
        let digits = Array(unsigned.filter { $0 != "." })
        // Where the point goes among `digits`, counted from their start.
        let position = point + exponent
        var text: String
        if position <= 0 {
            text = "0." + String(repeating: "0", count: -position) + String(digits)
        } else if position >= digits.count {
            text = String(digits) + String(repeating: "0", count: position - digits.count)
        } else {
            text = String(digits[..<position]) + "." + String(digits[position...])
        }
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return (negative ? "-" : "") + text
    }
}
