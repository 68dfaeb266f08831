import SkanCore
import SkanSchema

/// Which rule of a block each state reaches first, over the points of an `ActivitySpace`. A point is made one
/// quantity at a time, always one that the first undecided rule reads; a subtree is left as soon as its outcome
/// is decided (a rule holds, or every rule fails) or can only repeat outcomes already found. The work is counted
/// in terms visited (each point tried costs the terms of the rules it evaluates, times their nesting, which
/// finding an undecided term walks): past `budget` the search stops and says so (`exhausted`) rather than guess.
/// Counting points alone let a block of long rules (an import of GA4's 128 entries) run for a minute.
struct CoverageSearch {
    /// The terms a block's search may visit, states together: hundreds of thousands of points of realistic
    /// blocks, and under a second at worst.
    static let budget = 10_000_000

    let space: ActivitySpace
    let rules: [Condition]
    let budget: Int
    /// Whether some state and point reach each rule first.
    private(set) var used: [Bool]
    /// A point where the last state explored with a gap reaches no rule (every quantity chosen), the first found.
    private(set) var gapPoint: ActivityPoint?
    /// Whether the budget ran out: the answers are then incomplete.
    private(set) var exhausted = false
    private var spent = 0
    private var gapInState = false
    /// What trying one point costs, in terms visited: every rule is evaluated, then searched for a term.
    private let pointCost: Int

    init(space: ActivitySpace, rules: [Condition], budget: Int) {
        self.space = space
        self.rules = rules
        self.budget = budget
        used = Array(repeating: false, count: rules.count)
        pointCost = rules.reduce(1) { $0 + $1.termCount * (2 + $1.nesting) }
    }

    /// Explores one state; returns whether some point of it reaches no rule.
    mutating func explore(_ codes: [Int]) -> Bool {
        gapInState = false
        var point = ActivityPoint()
        descend(codes, &point)
        return gapInState
    }

    /// Whether some point makes rule `index` hold for `codes` (earlier rules aside).
    mutating func reaches(_ index: Int, codes: [Int]) -> Bool {
        var point = ActivityPoint()
        return holds(rules[index], codes, &point)
    }

    private mutating func descend(_ codes: [Int], _ point: inout ActivityPoint) {
        guard count() else { return }
        var first: Int?
        for (index, rule) in rules.enumerated() {
            switch rule.value(for: codes, at: point) {
            case false?: continue
            case true?:
                used[index] = true
                return
            case nil: first = index
            }
            break
        }
        guard let first else {
            gapInState = true
            if gapPoint == nil { gapPoint = completed(point) }
            return
        }
        guard somethingNew(from: first, codes, point) else { return }
        branch(on: rules[first], codes, &point) { search, point in search.descend(codes, &point) }
    }

    /// Whether a point below `point` could reach a rule not yet used, or a gap not yet found in this state.
    private func somethingNew(from first: Int, _ codes: [Int], _ point: ActivityPoint) -> Bool {
        for index in first..<rules.count {
            let value = rules[index].value(for: codes, at: point)
            if value == false { continue }
            if !used[index] { return true }
            if value == true { return false }
        }
        return !gapInState
    }

    private mutating func holds(_ condition: Condition, _ codes: [Int], _ point: inout ActivityPoint) -> Bool {
        guard count() else { return false }
        switch condition.value(for: codes, at: point) {
        case true?: return true
        case false?: return false
        case nil:
            var found = false
            branch(on: condition, codes, &point) { search, point in
                if !found { found = search.holds(condition, codes, &point) }
            }
            return found
        }
    }

    /// Tries each value of a quantity `condition` reads and `point` has not chosen.
    private mutating func branch(
        on condition: Condition, _ codes: [Int], _ point: inout ActivityPoint,
        _ body: (inout CoverageSearch, inout ActivityPoint) -> Void
    ) {
        guard let atom = condition.firstUndecidedAtom(for: codes, at: point),
            var quantity = ActivitySpace.quantity(of: atom)
        else { return }
        // A sum is chosen after its event's count, which says whether there is anything to sum.
        if case .sum(let event) = quantity, point.values[.count(event)] == nil { quantity = .count(event) }
        guard let index = space.position[quantity] else { return }
        var values = space.candidates[index]
        if case .sum(let event) = quantity, point.values[.count(event)] == 0 { values = [0] }
        for value in values {
            point.values[quantity] = value
            body(&self, &point)
            if exhausted { break }
        }
        point.values[quantity] = nil
    }

    /// Counts one point tried; false once the budget is spent.
    private mutating func count() -> Bool {
        spent += pointCost
        if spent > budget { exhausted = true }
        return !exhausted
    }

    /// `point` with every quantity it left open set to its first value (0 where a count is 0).
    private func completed(_ point: ActivityPoint) -> ActivityPoint {
        var point = point
        for (quantity, values) in zip(space.quantities, space.candidates) where point.values[quantity] == nil {
            if case .sum(let event) = quantity, point.values[.count(event)] == 0 {
                point.values[quantity] = 0
            } else {
                point.values[quantity] = values.first ?? 0
            }
        }
        return point
    }
}

extension ActivitySpace {
    /// The quantity an atom reads.
    static func quantity(of atom: Condition) -> Quantity? {
        switch atom {
        case .event(let event), .eventMeasure(let event, .count, _, _): .count(event)
        case .eventMeasure(let event, .sum, _, _): .sum(event)
        case .hours: .hours
        default: nil
        }
    }
}

extension Condition {
    /// How many flags, comparisons, events and hours the condition names.
    var termCount: Int {
        switch self {
        case .always: 0
        case .flag, .comparison, .event, .eventMeasure, .hours: 1
        case .not(let inner): inner.termCount
        case .all(let parts), .any(let parts): parts.reduce(0) { $0 + $1.termCount }
        }
    }

    /// How deep `not`, `and` and `or` nest in the condition.
    var nesting: Int {
        switch self {
        case .always, .flag, .comparison, .event, .eventMeasure, .hours: 0
        case .not(let inner): 1 + inner.nesting
        case .all(let parts), .any(let parts): 1 + (parts.map(\.nesting).max() ?? 0)
        }
    }

    /// An activity atom whose value would help decide the condition at `point`, or nil when it is decided.
    func firstUndecidedAtom(for codes: [Int], at point: ActivityPoint) -> Condition? {
        switch self {
        case .always, .flag, .comparison: return nil
        case .event, .eventMeasure, .hours: return point.value(of: self) == nil ? self : nil
        case .not(let inner): return inner.firstUndecidedAtom(for: codes, at: point)
        case .all(let parts), .any(let parts):
            guard value(for: codes, at: point) == nil else { return nil }
            for part in parts where part.value(for: codes, at: point) == nil {
                if let atom = part.firstUndecidedAtom(for: codes, at: point) { return atom }
            }
            return nil
        }
    }
}
