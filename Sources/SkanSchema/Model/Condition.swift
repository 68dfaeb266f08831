public import SkanCore

/// A resolved condition over a state and, in a schema with events, the activity: names are replaced by field
/// and event indices and case codes.
public indirect enum Condition: Hashable, Sendable {
    /// `otherwise`.
    case always
    /// A flag that is set.
    case flag(field: Int)
    /// The field's code compared with a case's code.
    case comparison(field: Int, ComparisonOperator, code: Int)
    /// An event logged at least once since first launch.
    case event(Int)
    /// An event's count or sum since first launch compared with a number.
    case eventMeasure(event: Int, EventMeasure, ComparisonOperator, Double)
    /// Hours since first launch compared with a number.
    case hours(ComparisonOperator, Double)
    case not(Condition)
    case all([Condition])
    case any([Condition])

    /// What `EVENT.count` and `EVENT.sum` read.
    public enum EventMeasure: String, Hashable, Sendable {
        case count, sum
    }

    /// Whether the condition holds for the codes of a state (one per schema field), with `facts` answering for
    /// the events and time (a schema without events never asks).
    public func holds(for codes: [Int], facts: some ActivityFacts) -> Bool {
        switch self {
        case .always: true
        case .flag(let field): codes[field] == 1
        case .comparison(let field, let op, let code): op.holds(codes[field], code)
        case .event(let event): facts.count(of: event) > 0
        case .eventMeasure(let event, .count, let op, let number): op.holds(facts.count(of: event), number)
        case .eventMeasure(let event, .sum, let op, let number): op.holds(facts.sum(of: event), number)
        case .hours(let op, let number): op.holds(facts.hours, number)
        case .not(let inner): !inner.holds(for: codes, facts: facts)
        case .all(let parts): parts.allSatisfy { $0.holds(for: codes, facts: facts) }
        case .any(let parts): parts.contains { $0.holds(for: codes, facts: facts) }
        }
    }

    /// Whether the condition holds for the codes of a state, before anything was logged, at hour 0: the whole
    /// answer for a schema without events.
    public func holds(for codes: [Int]) -> Bool {
        holds(for: codes, facts: NoActivity())
    }

    /// Whether the codes of a state decide the condition: true or false, or nil when it turns on events or time
    /// the codes do not tell (three-valued: `false and purchase` is false, `true or hours >= 24` is true).
    public func decided(for codes: [Int]) -> Bool? {
        switch self {
        case .always: return true
        case .flag(let field): return codes[field] == 1
        case .comparison(let field, let op, let code): return op.holds(codes[field], code)
        case .event, .eventMeasure, .hours: return nil
        case .not(let inner): return inner.decided(for: codes).map { !$0 }
        case .all(let parts):
            let values = parts.map { $0.decided(for: codes) }
            if values.contains(false) { return false }
            return values.contains(nil) ? nil : true
        case .any(let parts):
            let values = parts.map { $0.decided(for: codes) }
            if values.contains(true) { return true }
            return values.contains(nil) ? nil : false
        }
    }

    /// Whether the condition reads events or time, so that a state's codes alone do not decide it.
    public var readsActivity: Bool {
        switch self {
        case .always, .flag, .comparison: false
        case .event, .eventMeasure, .hours: true
        case .not(let inner): inner.readsActivity
        case .all(let parts), .any(let parts): parts.contains(where: \.readsActivity)
        }
    }

    /// The fields it reads.
    public var fieldsRead: Set<Int> {
        switch self {
        case .always, .event, .eventMeasure, .hours: []
        case .flag(let field), .comparison(let field, _, _): [field]
        case .not(let inner): inner.fieldsRead
        case .all(let parts), .any(let parts): parts.reduce(into: []) { $0.formUnion($1.fieldsRead) }
        }
    }
}

/// What a condition asks of an activity: each event's count and sum since first launch, and the hour.
public protocol ActivityFacts {
    /// How many times event `event` was logged.
    func count(of event: Int) -> Double
    /// The sum of event `event`'s amounts.
    func sum(of event: Int) -> Double
    /// Hours since first launch.
    var hours: Double { get }
}

/// Nothing logged, at hour 0.
public struct NoActivity: ActivityFacts {
    /// Nothing logged.
    public init() {}
    /// Zero.
    public func count(of event: Int) -> Double { 0 }
    /// Zero.
    public func sum(of event: Int) -> Double { 0 }
    /// Zero.
    public var hours: Double { 0 }
}

/// One line of a coarse block: the value it gives and when.
public struct CoarseRule: Hashable, Sendable {
    /// The coarse value the rule gives; nil for `nothing`: in the states it holds for, the app sends no update in
    /// the window (so a window with no update gets no postback, and window 1's keeps what was sent before).
    public var value: CoarseValue?
    /// When the rule applies; `.always` for `otherwise`.
    public var condition: Condition
    /// Where the rule is written, for diagnostics about it.
    public var location: SourceLocation
    /// The condition as written, with the author's parentheses (`otherwise` for the catch-all); tables,
    /// `skanc decode` and postback rows show this.
    public var text: String

    /// A rule giving `value` when `condition` holds, declared at `location` as `text`.
    public init(value: CoarseValue?, condition: Condition, location: SourceLocation, text: String) {
        self.value = value
        self.condition = condition
        self.location = location
        self.text = text
    }

    /// The rule's head as the language writes it: `low`, `medium`, `high` or `nothing`.
    public var head: String { value?.rawValue ?? CoarseRule.nothing }

    /// The keyword of a rule that sends nothing.
    public static let nothing = "nothing"
}
