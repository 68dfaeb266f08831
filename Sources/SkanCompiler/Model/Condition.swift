public import SkanCore

/// A resolved condition over a state: names are replaced by field indices and case codes.
public indirect enum Condition: Hashable, Sendable {
    /// `otherwise`.
    case always
    /// A flag that is set.
    case flag(field: Int)
    /// The field's code compared with a case's code.
    case comparison(field: Int, ComparisonOperator, code: Int)
    case not(Condition)
    case all([Condition])
    case any([Condition])

    /// Whether the condition holds for the codes of a state (one per schema field).
    public func holds(for codes: [Int]) -> Bool {
        switch self {
        case .always: true
        case .flag(let field): codes[field] == 1
        case .comparison(let field, let op, let code): op.holds(codes[field], code)
        case .not(let inner): !inner.holds(for: codes)
        case .all(let parts): parts.allSatisfy { $0.holds(for: codes) }
        case .any(let parts): parts.contains { $0.holds(for: codes) }
        }
    }
}

/// One line of a coarse block: the value it gives and when.
public struct CoarseRule: Hashable, Sendable {
    /// The coarse value the rule gives.
    public var value: CoarseValue
    /// When the rule applies; `.always` for `otherwise`.
    public var condition: Condition
    /// Where the rule is written, for diagnostics about it.
    public var location: SourceLocation
    /// The condition as written, with the author's parentheses (`otherwise` for the catch-all); tables,
    /// `skanc decode` and postback rows show this.
    public var text: String

    /// A rule giving `value` when `condition` holds, declared at `location` as `text`.
    public init(value: CoarseValue, condition: Condition, location: SourceLocation, text: String) {
        self.value = value
        self.condition = condition
        self.location = location
        self.text = text
    }
}
