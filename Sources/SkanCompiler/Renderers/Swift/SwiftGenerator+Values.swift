import SkanCore
import SkanSchema

extension SwiftGenerator {
    func renderFineValue(_ out: inout CodeWriter) {
        let marker = schema.reservedBits.reduce(0) { $0 | $1.code << $1.bits.lower }
        out.line(
            marker == 0
                ? "/// The fine conversion value (0...63): each field's code shifted into its bits; reserved bits are 0."
                : "/// The fine conversion value (0...63): each field's code shifted into its bits, and \(marker), the "
                    + "bits that mark this version.")
        out.block("\(access)var fineValue: Swift.Int {") { out in
            var terms = schema.fields.map { field in
                field.bits.lower == 0 ? codeExpression(field) : "(\(codeExpression(field)) << \(field.bits.lower))"
            }
            if marker != 0 { terms.append(String(marker)) }
            out.line("return " + (terms.isEmpty ? "0" : terms.joined(separator: " | ")))
        }
        out.line()
    }

    /// Checks in the order of `Schema.decode(fineValue:)`: range, reserved bits, unused bits, fields.
    func renderDecodingInitializer(_ out: inout CodeWriter) {
        out.line("/// The state a fine value encodes.")
        out.line(
            "/// - Throws: `FineValueError` when the value is outside 0...63, has a reserved or unused bit set, or")
        out.line("///   holds a code that is no case of its field.")
        out.block("\(access)init(fineValue: Swift.Int) throws(FineValueError) {") { out in
            out.line("guard fineValue >= 0 && fineValue <= 63 else { throw .outOfRange(fineValue) }")
            for reserved in schema.reservedBits {
                for bit in reserved.bits.indices {
                    out.line(
                        reserved.holdsSet(bit)
                            ? "if fineValue & \(1 << bit) == 0 { throw .reservedBitClear(bit: \(bit)) }"
                            : "if fineValue & \(1 << bit) != 0 { throw .reservedBitSet(bit: \(bit)) }")
                }
            }
            for bit in schema.unusedBits {
                out.line("if fineValue & \(1 << bit) != 0 { throw .unusedBitSet(bit: \(bit)) }")
            }
            for field in schema.fields {
                let code =
                    field.bits.lower == 0
                    ? "fineValue & \(field.bits.maximumCode)"
                    : "(fineValue >> \(field.bits.lower)) & \(field.bits.maximumCode)"
                if field.isFlag {
                    out.line("self.\(propertyName(field)) = \(code) == 1")
                } else {
                    let name = SwiftLiterals.string(field.name)
                    out.line("self.\(propertyName(field)) = try Self.decodeCase(\(code), field: \(name))")
                }
            }
            if schema.readsActivity { out.line("self.activity = Activity()") }
        }
        out.line()
        guard schema.fields.contains(where: { !$0.isFlag }) else { return }
        out.block(
            "private static func decodeCase<Case: Swift.RawRepresentable>(_ code: Swift.Int, field: Swift.String) throws(FineValueError) -> Case where Case.RawValue == Swift.Int {"
        ) { out in
            out.line("guard let value = Case(rawValue: code) else { throw .undefinedCode(field: field, code: code) }")
            out.line("return value")
        }
        out.line()
    }

    /// One `case` per group of windows with the same rules; the last rule of a window returns without a test,
    /// because the checker proved that the rules cover every state the type can hold. The window is a
    /// `Window`, so no value a caller can pass traps. A schema with `nothing` rules gets `coarseUpdate(in:)`
    /// (nil: send nothing) and `sendsUpdate(in:)` as well, which the runtime reads before it sends.
    func renderCoarseValue(_ out: inout CodeWriter) {
        let sendsNothing = schema.coarseRulesByWindow.values.joined().contains { $0.value == nil }
        guard sendsNothing else {
            out.line("/// The coarse conversion value in a conversion window.")
            out.block("\(access)func coarseValue(in window: Window) -> CoarseValue {") { renderCoarseRules(&$0) }
            out.line()
            return
        }
        out.line("/// The coarse conversion value the app sends in a conversion window; nil where the schema says")
        out.line("/// `nothing`: in this state the app sends no update in the window.")
        out.block("\(access)func coarseUpdate(in window: Window) -> CoarseValue? {") { renderCoarseRules(&$0) }
        out.line()
        out.line("/// Whether the app sends an update in a conversion window in this state (no `nothing` rule holds).")
        out.block("\(access)func sendsUpdate(in window: Window) -> Swift.Bool {") { out in
            out.line("coarseUpdate(in: window) != nil")
        }
        out.line()
        out.line(
            "/// The coarse conversion value in a conversion window; `.low` where `sendsUpdate(in:)` is false, a value")
        out.line("/// no update carries.")
        out.block("\(access)func coarseValue(in window: Window) -> CoarseValue {") { out in
            out.line("coarseUpdate(in: window) ?? .low")
        }
        out.line()
    }

    private func renderCoarseRules(_ out: inout CodeWriter) {
        out.line("switch window {")
        for (windows, rules) in groupedByWindow({ schema.coarseRules(window: $0) }) {
            out.line("case \(windowCases(windows)):")
            for rule in rules {
                let answer = rule.value.map { ".\($0.rawValue)" } ?? "nil"
                guard rule != rules.last, rule.condition != .always else {
                    let note = rule.condition == .always ? "" : "  // when \(commentText(rule.text)): every state left"
                    out.line("    return \(answer)" + note)
                    break
                }
                out.line("    if \(swiftCondition(rule.condition)) { return \(answer) }")
            }
        }
        out.line("}")
    }

    func renderShouldLock(_ out: inout CodeWriter) {
        out.line("/// Whether the app should lock the conversion window it is in, in this state.")
        out.block("\(access)func shouldLock(in window: Window) -> Swift.Bool {") { out in
            out.line("switch window {")
            for (windows, condition) in groupedByWindow({ schema.lockCondition(window: $0) }) {
                out.line("case \(windowCases(windows)):")
                out.line("    return " + (condition.map { swiftCondition($0) } ?? "false"))
            }
            out.line("}")
        }
    }

    /// `.first, .third` for windows 1 and 3.
    private func windowCases(_ windows: [ConversionWindow]) -> String {
        windows.map { "." + ["first", "second", "third"][$0.postbackSequenceIndex] }.joined(separator: ", ")
    }

    /// Windows 1...3 grouped by equal values, in window order.
    private func groupedByWindow<Value: Equatable>(
        _ value: (ConversionWindow) -> Value
    ) -> [([ConversionWindow], Value)] {
        var groups: [([ConversionWindow], Value)] = []
        for window in ConversionWindow.allCases {
            let current = value(window)
            if let index = groups.firstIndex(where: { $0.1 == current }) {
                groups[index].0.append(window)
            } else {
                groups.append(([window], current))
            }
        }
        return groups
    }

    /// A condition as a Swift Boolean expression over `self`; compound parts are parenthesized, and a long
    /// condition is a call of its method (`ConditionHelpers`) unless `inline`.
    func swiftCondition(_ condition: Condition, inline: Bool = false) -> String {
        if !inline, let method = conditionHelpers.names[condition] { return "self.\(method)()" }
        switch condition {
        case .always:
            return "true"
        case .flag(let index):
            return "self.\(propertyName(schema.fields[index]))"
        case .comparison(let index, let op, let code):
            let field = schema.fields[index]
            // Field enums compare by code, and `.case` needs no type name (`Default.Type` would read as a metatype).
            let caseName = caseName(field.caseWithCode(code)!, of: field)
            return "self.\(propertyName(field)) \(op.rawValue) .\(caseName)"
        case .event(let event):
            return "self.activity.counts[\(event)] > 0"
        case .eventMeasure(let event, let measure, let op, let number):
            return
                "self.activity.\(measure == .count ? "counts" : "sums")[\(event)] \(op.rawValue) \(ConditionNumber.text(number))"
        case .hours(let op, let number):
            return "self.activity.hours \(op.rawValue) \(ConditionNumber.text(number))"
        case .not(let inner):
            return "!(\(swiftCondition(inner)))"
        case .all(let parts):
            return "(" + parts.map { swiftCondition($0) }.joined(separator: " && ") + ")"
        case .any(let parts):
            return "(" + parts.map { swiftCondition($0) }.joined(separator: " || ") + ")"
        }
    }

    private func commentText(_ text: String) -> String {
        SwiftLiterals.commentLines(text).joined(separator: " ")
    }
}
