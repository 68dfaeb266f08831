import SkanCore
import SkanSchema

/// Long conditions as statements. Swift type-checks one long Boolean expression in time that grows faster than
/// its length (600 event comparisons in one `||`: 9 s), but a function of `if` and `guard` statements, each with a
/// short expression, in time that grows with its length (the same 600 comparisons: 0.6 s). So a condition of more
/// than `inlineTerms` flags and comparisons becomes a private method, `conditionN()`, whose parts are statements;
/// parts that are long themselves become methods of their own. Equal conditions share one method.
struct ConditionHelpers {
    /// The most flags and comparisons a condition is written with inline.
    static let inlineTerms = 12

    /// Each long condition's method name, and the conditions in the order their methods are written.
    private(set) var names: [Condition: String] = [:]
    private(set) var ordered: [Condition] = []

    /// The methods `schema`'s conditions need, named so that no name of `plan` is taken.
    init(schema: Schema, plan: SwiftNamePlan) {
        var conditions: [Condition] = []
        for window in ConversionWindow.allCases {
            conditions += schema.coarseRules(window: window).map(\.condition)
            conditions += [schema.lockCondition(window: window)].compactMap { $0 }
        }
        for field in schema.fields {
            switch field.derivation {
            case .flag(let condition)?: conditions.append(condition)
            case .firstMatch(let cases)?: conditions += cases
            default: break
            }
        }
        for condition in conditions { register(condition, plan: plan) }
    }

    private mutating func register(_ condition: Condition, plan: SwiftNamePlan) {
        guard condition.termCount > Self.inlineTerms, names[condition] == nil else { return }
        switch condition {
        case .not(let inner):
            // No statement to write: the inner condition is the method.
            register(inner, plan: plan)
            return
        case .all(let parts), .any(let parts):
            for part in parts { register(part, plan: plan) }
            // One part: it is the method.
            if parts.count == 1 { return }
        default:
            return
        }
        names[condition] = plan.freeStateName("condition\(ordered.count)")
        ordered.append(condition)
    }

}

extension SwiftGenerator {
    /// The methods of the long conditions, each a statement per part.
    func renderConditionHelpers(_ out: inout CodeWriter) {
        for condition in conditionHelpers.ordered {
            out.line()
            out.block("private func \(conditionHelpers.names[condition]!)() -> Swift.Bool {") { out in
                switch condition {
                case .any(let parts):
                    for part in parts { out.line("if \(swiftCondition(part)) { return true }") }
                    out.line("return false")
                case .all(let parts):
                    for part in parts { out.line("guard \(swiftCondition(part)) else { return false }") }
                    out.line("return true")
                default:
                    out.line("return \(swiftCondition(condition, inline: true))")
                }
            }
        }
    }
}
