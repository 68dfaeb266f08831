import SkanCompiler
public import SkanCore
public import SkanSchema

/// What one value means for a schema: a fine value's fields (or why it is not valid), or the rule and
/// the states behind a coarse value in a window. `skanc decode` renders these as text or JSON.
public enum ValueExplanation: Sendable {
    /// One flag or field of a decoded fine value, with the case it holds.
    public struct FieldValue: Sendable {
        /// The flag or field.
        public var field: Field
        /// The case it holds.
        public var fieldCase: FieldCase
    }

    /// `coarse` and `lock` hold nil in a window where they turn on events or time, which a fine value does not tell;
    /// `coarse` holds `low`, `medium`, `high`, or `nothing` where the state sends no update.
    case fine(value: Int, result: Result<[FieldValue], FineValueError>, coarse: [String?], lock: [Bool?])
    case coarse(value: CoarseValue, window: ConversionWindow, rule: String, fineValues: [Int])
    /// Neither a fine value nor a coarse value.
    case unreadable(String)

    /// Reads `text` as a fine value (`11`) or a coarse value (`high`) and explains it for each window in
    /// `windows` (coarse values only; fine values always show all three).
    public static func explain(_ text: String, in schema: Schema, windows: [ConversionWindow]) -> [ValueExplanation] {
        if let value = Int(text) {
            switch schema.decode(fineValue: value) {
            case .failure(let error):
                return [.fine(value: value, result: .failure(error), coarse: [], lock: [])]
            case .success(let state):
                let values = zip(schema.fields, state.codes).map {
                    FieldValue(field: $0, fieldCase: $0.caseWithCode($1)!)
                }
                return [
                    .fine(
                        value: value, result: .success(values),
                        coarse: ConversionWindow.allCases.map { schema.coarseHead(of: state, window: $0) },
                        lock: ConversionWindow.allCases.map { schema.lockDecision(for: state, window: $0) })
                ]
            }
        }
        guard let coarse = CoarseValue(rawValue: text) else { return [.unreadable(text)] }
        let states = schema.validStates
        return windows.map { window in
            .coarse(
                value: coarse, window: window, rule: schema.ruleText(for: coarse, window: window),
                fineValues: states.filter { schema.coarseValue(of: $0, window: window) == coarse }.map(
                    schema.fineValue(of:)))
        }
    }

    /// False for a fine value that is not valid for the schema and for text that is no value.
    public var decoded: Bool {
        switch self {
        case .fine(_, .failure, _, _), .unreadable: false
        default: true
        }
    }
}
