public import SkanCore

/// Why a fine value is not a state of a schema.
public enum FineValueError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Fine values are 0...63.
    case outOfRange(Int)
    /// A reserved bit is set; such a value belongs to another version of the layout.
    case reservedBitSet(bit: Int, reason: String?)
    /// A bit this layout sets in every value (`reserved bit 5 = 1`) is clear: the value belongs to another
    /// version of the layout.
    case reservedBitClear(bit: Int, reason: String?)
    /// A bit that no declaration owns is set.
    case unusedBitSet(bit: Int)
    /// A field's bits hold a code that names no case.
    case undefinedCode(field: String, code: Int, bits: BitRange)

    /// A short machine-readable name for tables and postback status columns.
    public var code: String {
        switch self {
        case .outOfRange: "out-of-range"
        case .reservedBitSet, .reservedBitClear: "reserved-bit"
        case .unusedBitSet: "unused-bit"
        case .undefinedCode: "undefined-code"
        }
    }

    /// Why the value is no state, in words.
    public var description: String {
        switch self {
        case .outOfRange(let value):
            "\(value) is not a fine value: fine values are 0...63"
        case .reservedBitSet(let bit, let reason):
            "bit \(bit) is reserved" + (reason.map { " (\($0))" } ?? "")
        case .reservedBitClear(let bit, let reason):
            "bit \(bit) is clear, but this layout sets it in every value" + (reason.map { " (\($0))" } ?? "")
        case .unusedBitSet(let bit):
            "bit \(bit) belongs to no flag or field of this schema"
        case .undefinedCode(let field, let code, let bits):
            "\(bits) hold code \(code), which is no case of \(field)"
        }
    }
}

extension Schema {
    /// The fine value of a state: every field's code shifted into its bits, reserved bits holding their
    /// code (0 unless the schema marks its version with them), unused bits 0.
    /// Codes must be cases of their fields (as every state from `decode` or `validStates` is).
    public func fineValue(of state: SchemaState) -> Int {
        var value = 0
        for (field, code) in zip(fields, state.codes) {
            precondition(code >= 0 && code <= field.bits.maximumCode, "code \(code) does not fit \(field.name)")
            value |= code << field.bits.lower
        }
        for reserved in reservedBits { value |= reserved.code << reserved.bits.lower }
        return value
    }

    /// The state a fine value encodes, or the first reason it is not valid for this schema, checked in
    /// this order: the range 0...63, reserved bits (lowest first), unused bits, then fields in order.
    public func decode(fineValue: Int) -> Result<SchemaState, FineValueError> {
        guard Schema.fineValueRange.contains(fineValue) else { return .failure(.outOfRange(fineValue)) }
        for reserved in reservedBits {
            for bit in reserved.bits.indices where (fineValue & (1 << bit) != 0) != reserved.holdsSet(bit) {
                return .failure(
                    reserved.holdsSet(bit)
                        ? .reservedBitClear(bit: bit, reason: reserved.description)
                        : .reservedBitSet(bit: bit, reason: reserved.description))
            }
        }
        for bit in unusedBits where fineValue & (1 << bit) != 0 {
            return .failure(.unusedBitSet(bit: bit))
        }
        var codes: [Int] = []
        codes.reserveCapacity(fields.count)
        for field in fields {
            let code = (fineValue >> field.bits.lower) & field.bits.maximumCode
            guard field.caseWithCode(code) != nil else {
                return .failure(.undefinedCode(field: field.name, code: code, bits: field.bits))
            }
            codes.append(code)
        }
        return .success(SchemaState(codes: codes))
    }

    /// The first coarse rule of `window` that holds for `state`; nil when the rules leave a gap (which the
    /// checker rejects) or when a rule on events or time comes first, so that the state alone does not decide it
    /// (`evaluate(_:at:)` does, with the activity).
    public func matchingCoarseRule(for state: SchemaState, window: ConversionWindow) -> CoarseRule? {
        for rule in coarseRules(window: window) {
            switch rule.condition.decided(for: state.codes) {
            case true?: return rule
            case false?: continue
            case nil: return nil
            }
        }
        return nil
    }

    /// The coarse value of `state` in `window` (1, 2 or 3); nil when it turns on events or time, or when a `nothing`
    /// rule holds (`coarseHead(of:window:)` tells them apart).
    public func coarseValue(of state: SchemaState, window: ConversionWindow) -> CoarseValue? {
        matchingCoarseRule(for: state, window: window)?.value
    }

    /// What `state` sends in `window` as the language says it: `low`, `medium`, `high`, or `nothing` (no update);
    /// nil when it turns on events or time.
    public func coarseHead(of state: SchemaState, window: ConversionWindow) -> String? {
        matchingCoarseRule(for: state, window: window)?.head
    }

    /// Whether the app should lock `window` when the user is in `state`; false when the lock turns on events or
    /// time (`lockDecision(for:window:)` says so).
    public func shouldLock(_ state: SchemaState, window: ConversionWindow) -> Bool {
        lockDecision(for: state, window: window) ?? false
    }

    /// Whether `state` locks `window`: true, false, or nil when the lock turns on events or time.
    public func lockDecision(for state: SchemaState, window: ConversionWindow) -> Bool? {
        guard let condition = lockCondition(window: window) else { return false }
        return condition.decided(for: state.codes)
    }
}
