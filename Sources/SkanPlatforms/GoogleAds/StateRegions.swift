import SkanCore
import SkanSchema

/// Each state of the fields a window reads, with the exact region of activities that reach it: for each field,
/// its case's condition and the negation of every case tried before it (first match), on a platform with a
/// clock. Negations make strict bounds and ranges that Google Ads' one mapping per value may not hold.
struct StateRegions {
    struct State {
        /// The code of each field the window reads; nil for the others.
        var codes: [Int?]
        /// The activities that reach the state, a union of conjunctions.
        var region: [EventConjunction]
    }

    struct FoundLoss {
        var kind: ExportLoss.Kind
        var location: SourceLocation?
        var fineValue: Int?
    }

    private(set) var states: [State] = []
    private(set) var losses: [FoundLoss] = []
    let schema: Schema
    let window: ConversionWindow
    let orderings: [FieldOrdering]
    let needed: [Int]
    let work: ExportWork

    init(schema: Schema, window: ConversionWindow, work: ExportWork) {
        self.schema = schema
        self.window = window
        self.work = work
        orderings = schema.fields.map {
            FieldOrdering(
                field: $0, window: window, allowsTime: true, units: schema.events.map(\.unitsPerWhole))
        }
        needed = schema.fieldsRead(in: window)
        var codes = [Int?](repeating: nil, count: schema.fields.count)
        descend(depth: 0, codes: &codes, region: [.always], pending: [])
    }

    private mutating func descend(
        depth: Int, codes: inout [Int?], region: [EventConjunction], pending: [(ExportLoss.Kind, SourceLocation?)]
    ) {
        guard !work.isExhausted else { return }
        guard depth < needed.count else {
            let fine = window == .first ? schema.fineValue(of: SchemaState(codes: codes.map { $0 ?? 0 })) : nil
            for (kind, location) in pending {
                losses.append(FoundLoss(kind: kind, location: location, fineValue: fine))
            }
            states.append(State(codes: codes, region: region))
            return
        }
        let field = needed[depth]
        let ordering = orderings[field]
        let location = schema.sites.field(field)
        for (position, choice) in ordering.choices.enumerated() {
            codes[field] = choice.code
            // This case, and none tried before it.
            let exact = Condition.all([choice.condition] + ordering.choices[..<position].map { .not($0.condition) })
            var translation = ConditionTranslation(schema: schema, codes: codes, location: location, work: work)
            translation.allowsTime = true
            let terms = translation.terms(of: exact)
            let combined = RegionSimplification.simplified(
                ConditionTranslation.cross(region, terms, work: work, losses: &translation.losses), schema: schema,
                work: work)
            if work.isExhausted {
                // Located where it ran out; the states below are not built.
                losses.append(FoundLoss(kind: .tooMuchWork(limit: work.limit), location: location, fineValue: nil))
                break
            }
            let found = pending + ordering.losses.map { ($0, location) } + translation.losses.map { ($0, location) }
            if !combined.isEmpty { descend(depth: depth + 1, codes: &codes, region: combined, pending: found) }
        }
        codes[field] = nil
    }
}

/// The region of each coarse value in a window: over the states of the fields the window reads, each rule's
/// condition and the negation of the rules before it.
struct CoarseRegions {
    private(set) var regions: [CoarseValue: [EventConjunction]] = [:]
    private(set) var losses: [StateRegions.FoundLoss] = []

    init(schema: Schema, window: ConversionWindow, work: ExportWork) {
        let states = StateRegions(schema: schema, window: window, work: work)
        losses = states.losses.map { StateRegions.FoundLoss(kind: $0.kind, location: $0.location, fineValue: nil) }
        let rules = schema.coarseRules(window: window)
        for state in states.states {
            for (position, rule) in rules.enumerated() {
                let exact = Condition.all([rule.condition] + rules[..<position].map { .not($0.condition) })
                var translation = ConditionTranslation(
                    schema: schema, codes: state.codes, location: rule.location, work: work)
                translation.allowsTime = true
                let terms = translation.terms(of: exact)
                // Where a `nothing` rule holds no update is sent: no coarse value has that region.
                guard let value = rule.value else { continue }
                regions[value, default: []] += ConditionTranslation.cross(
                    state.region, terms, work: work, losses: &translation.losses)
                if work.isExhausted, !translation.losses.contains(.tooMuchWork(limit: work.limit)) {
                    translation.losses.append(.tooMuchWork(limit: work.limit))
                }
                for kind in translation.losses {
                    losses.append(StateRegions.FoundLoss(kind: kind, location: rule.location, fineValue: nil))
                }
                if work.isExhausted { return }
            }
        }
    }
}

/// What locks a window, in Google Ads' terms: one event, one fine value or one coarse value.
enum LockTrigger {
    case event(String)
    case fine(Int)
    case coarse(CoarseValue)
    /// None of them: what the lock is, for the message.
    case none(String)

    init?(schema: Schema, window: ConversionWindow, states: [StateRegions.State]) {
        guard let lock = schema.lockCondition(window: window) else { return nil }
        if case .event(let event) = lock {
            self = .event(schema.events[event].name)
            return
        }
        let rules = schema.coarseRules(window: window)
        if let first = rules.first, let value = first.value, first.condition == lock {
            self = .coarse(value)
            return
        }
        if !lock.readsActivity, window == .first {
            let locked = states.filter { lock.holds(for: $0.codes.map { $0 ?? 0 }) }
            if locked.count == 1 {
                self = .fine(schema.fineValue(of: SchemaState(codes: locked[0].codes.map { $0 ?? 0 })))
                return
            }
            // The lock holds exactly in the states of one coarse value (rules on fields alone).
            if rules.allSatisfy({ !$0.condition.readsActivity }) {
                let coarse = states.map { state in
                    rules.first { $0.condition.holds(for: state.codes.map { $0 ?? 0 }) }?.value
                }
                for value in [CoarseValue.high, .medium, .low]
                where zip(states, coarse).allSatisfy({ state, given in
                    lock.holds(for: state.codes.map { $0 ?? 0 }) == (given == value)
                }) {
                    self = .coarse(value)
                    return
                }
            }
        }
        self = .none("the lock of window \(window.number)")
    }
}
