public import SkanCore

/// The reference semantics of events and time kept up to date as events arrive: counts and sums since first
/// launch, and each derived field's source, added to once per event. Evaluating costs the same whatever came
/// before, so a journey of n lines costs n evaluations, not n² (`Schema.evaluate(_:at:)` is this, run over an
/// activity's events). Events arrive in hour order; each evaluation is at an hour no earlier than the last event.
public struct RunningActivity: Sendable {
    let schema: Schema
    /// Everything the activity holds, in one array that `ActivityProgram` reads as one buffer: per event, how many
    /// times it was logged (from 0) and the sum of its amounts (from `sumsStart`); per field, three source totals
    /// (from `totalsStart`; 0 for fields without a source, and for `days`), the first holding the total, except
    /// for a source in the current window, which keeps one total per window (the events from that window's start
    /// on); then per field the code the app set (from `setCodesStart`; 0 where unset).
    private(set) var facts: [Double]
    let sumsStart: Int
    let totalsStart: Int
    let setCodesStart: Int
    /// The codes of the fields the app set, by field index.
    public private(set) var setCodes: [Int: Int] = [:]
    /// Per event, the fields whose source it feeds (worked out once: an app logs many events).
    private let feeds: [[(field: Int, counted: Bool, scope: ActivitySource.Scope)]]
    /// Each field's source (nil for fields without one), read on every evaluation.
    private let fieldSources: [ActivitySource?]
    /// Each event's minor units per whole unit of its currency (nil for counted events and currencies without).
    private let unitsPerWhole: [Double?]

    /// Nothing logged yet.
    public init(schema: Schema) {
        self.schema = schema
        sumsStart = schema.events.count
        totalsStart = 2 * schema.events.count
        setCodesStart = totalsStart + schema.fields.count * Self.slots
        facts = Array(repeating: 0, count: setCodesStart + schema.fields.count)
        var feeds = [[(field: Int, counted: Bool, scope: ActivitySource.Scope)]](
            repeating: [], count: schema.events.count)
        for (index, field) in schema.fields.enumerated() {
            guard case let source? = field.source, source.measure != .days else { continue }
            for event in Set(source.events) where feeds.indices.contains(event) {
                feeds[event].append((index, source.measure == .count, source.scope))
            }
        }
        self.feeds = feeds
        fieldSources = schema.fields.map(\.source)
        unitsPerWhole = schema.events.map(\.unitsPerWhole)
    }

    /// Adds a logged event.
    public mutating func log(_ logged: LoggedEvent) {
        guard logged.event < sumsStart, logged.event >= 0 else { return }
        facts[logged.event] += 1
        // Amounts are summed in whole minor units of the event's currency, as the generated code sums them.
        let unit = unitsPerWhole[logged.event]
        let amount = logged.amount ?? 0
        let sum = sumsStart + logged.event
        facts[sum] = MinorUnitSum.adding(amount, to: facts[sum], unitsPerWhole: unit)
        for (index, counted, scope) in feeds[logged.event] {
            switch scope {
            case .sinceFirstLaunch:
                let slot = totalsStart + index * Self.slots
                facts[slot] = Self.add(amount, to: facts[slot], counted: counted, unit: unit)
            case .within(let hours):
                guard logged.hour < hours else { continue }
                let slot = totalsStart + index * Self.slots
                facts[slot] = Self.add(amount, to: facts[slot], counted: counted, unit: unit)
            case .inWindow:
                // Counted in each window's total from whose start on it was logged.
                for (position, start) in Self.windowStarts.enumerated() where logged.hour >= start {
                    let slot = totalsStart + index * Self.slots + position
                    facts[slot] = Self.add(amount, to: facts[slot], counted: counted, unit: unit)
                }
            }
        }
    }

    /// Source totals per field: one per window.
    static let slots = ConversionWindow.allCases.count
    /// Where each window starts, in hours, by its position (worked out once: a logged event reads them).
    private static let windowStarts = ConversionWindow.allCases.map { Double($0.hours.lowerBound) }

    /// A source's total with one more event: 1 more for a count, the amount in whole minor units for a sum.
    private static func add(_ amount: Double, to total: Double, counted: Bool, unit: Double?) -> Double {
        counted ? total + 1 : MinorUnitSum.adding(amount, to: total, unitsPerWhole: unit)
    }

    /// Sets an app-set field's code.
    public mutating func set(field index: Int, code: Int) {
        setCodes[index] = code
        if index >= 0, setCodesStart + index < facts.count { facts[setCodesStart + index] = Double(code) }
    }

    /// The number `field`'s source gives at `hour` (nil for a field without one).
    func measure(field index: Int, at hour: Double) -> Double? {
        guard case let source? = fieldSources[index] else { return nil }
        if source.measure == .days { return (max(hour, 0) / 24).rounded(.down) }
        if source.scope == .inWindow {
            let window = ConversionWindow.allCases.first { hour < Double($0.hours.upperBound) } ?? .third
            return facts[totalsStart + index * Self.slots + window.postbackSequenceIndex]
        }
        return facts[totalsStart + index * Self.slots]
    }

    /// The schema evaluated at `hour` on what was logged and set: as `Schema.evaluate(_:at:)`.
    public func evaluate(at hour: Double) -> ActivityEvaluation {
        evaluate(at: hour, window: ConversionWindow.allCases.first { hour < Double($0.hours.upperBound) })
    }

    /// The same, with the coarse value, `sends` and the lock of `window` rather than of the window at `hour`:
    /// what an app asks of a window it is told about (`ConversionValueState.coarseValue(in:)`).
    public func evaluate(at hour: Double, window: ConversionWindow?) -> ActivityEvaluation {
        let facts = Totals(facts: self.facts, events: sumsStart, hours: hour)
        var codes = Array(repeating: 0, count: schema.fields.count)
        var measures = [Double?](repeating: nil, count: schema.fields.count)
        for (index, field) in schema.fields.enumerated() {
            // Derived conditions read the fields before this one, which are final by now (later ones still 0).
            switch field.derivation {
            case nil:
                codes[index] = setCodes[index] ?? 0
            case .flag(let condition):
                codes[index] = condition.holds(for: codes, facts: facts) ? 1 : 0
            case .firstMatch(let conditions):
                let chosen = conditions.firstIndex { $0.holds(for: codes, facts: facts) } ?? (field.cases.count - 1)
                codes[index] = field.cases[chosen].code
            case .buckets:
                let value = measure(field: index, at: hour) ?? 0
                codes[index] = (field.bucketCase(for: value) ?? field.nearestBucketCase(for: value))?.code ?? 0
                measures[index] = value
            case .count:
                let value = measure(field: index, at: hour) ?? 0
                codes[index] = min(Int(max(value, 0)), field.bits.maximumCode)
                measures[index] = value
            }
        }
        let state = SchemaState(codes: codes)
        let rule = window.flatMap { window in
            schema.coarseRules(window: window).first { $0.condition.holds(for: codes, facts: facts) }
        }
        // A `nothing` rule sends no update, so nothing locks either.
        let sends = rule != nil && rule?.value != nil
        let lock =
            sends
            && (window.map { schema.lockCondition(window: $0)?.holds(for: codes, facts: facts) ?? false } ?? false)
        return ActivityEvaluation(
            state: state, fineValue: schema.fineValue(of: state), window: window, coarseValue: rule?.value,
            sends: sends, lock: lock, measures: measures)
    }

    /// Counts and sums since first launch, and the hour: what conditions read.
    private struct Totals: ActivityFacts {
        let facts: [Double]
        let events: Int
        let hours: Double

        func count(of event: Int) -> Double { (0..<events).contains(event) ? facts[event] : 0 }
        func sum(of event: Int) -> Double { (0..<events).contains(event) ? facts[events + event] : 0 }
    }
}

extension Field {
    /// The source a `buckets` or `count` field measures.
    var source: ActivitySource? {
        switch derivation {
        case .buckets(let source)?, .count(let source)?: source
        default: nil
        }
    }
}
