public import SkanCore

/// The reference semantics of events and time kept up to date as events arrive: counts and sums since first
/// launch, and each derived field's source, added to once per event. Evaluating costs the same whatever came
/// before, so a journey of n lines costs n evaluations, not n² (`Schema.evaluate(_:at:)` is this, run over an
/// activity's events). Events arrive in hour order; each evaluation is at an hour no earlier than the last event.
public struct RunningActivity: Sendable {
    /// What is worked out once per schema (an app logs many events), shared by every copy: where each kind of
    /// figure starts in `facts`, and which sources each event feeds. One reference, so that a running activity
    /// is three words to copy.
    final class Layout: Sendable {
        let schema: Schema
        let sumsStart: Int
        let totalsStart: Int
        let setCodesStart: Int
        /// Per event, the fields whose source it feeds: a range of `feeds`, one flat list, so that logging an
        /// event retains no inner array.
        let feedsOfEvent: [Range<Int>]
        let feeds: [(field: Int, counted: Bool, scope: ActivitySource.Scope)]
        /// Each field's source (nil for fields without one), read on every evaluation.
        let fieldSources: [ActivitySource?]
        /// Each event's minor units per whole unit of its currency (nil for counted events and currencies without).
        let unitsPerWhole: [Double?]
        /// Where each window starts, in hours, by its position.
        let windowStarts = ConversionWindow.allCases.map { Double($0.hours.lowerBound) }

        init(schema: Schema) {
            self.schema = schema
            sumsStart = schema.events.count
            totalsStart = 2 * schema.events.count
            setCodesStart = totalsStart + schema.fields.count * RunningActivity.slots
            var feeds = [[(field: Int, counted: Bool, scope: ActivitySource.Scope)]](
                repeating: [], count: schema.events.count)
            for (index, field) in schema.fields.enumerated() {
                guard case let source? = field.source, source.measure != .days else { continue }
                for event in Set(source.events) where feeds.indices.contains(event) {
                    feeds[event].append((index, source.measure == .count, source.scope))
                }
            }
            feedsOfEvent = feeds.reduce(into: []) { ranges, list in
                let start = ranges.last?.upperBound ?? 0
                ranges.append(start..<start + list.count)
            }
            self.feeds = feeds.flatMap { $0 }
            fieldSources = schema.fields.map(\.source)
            unitsPerWhole = schema.events.map(\.unitsPerWhole)
        }
    }

    private let layout: Layout
    /// Everything the activity holds, in one array that `ActivityProgram` reads as one buffer: per event, how many
    /// times it was logged (from 0) and the sum of its amounts (from `sumsStart`); per field, three source totals
    /// (from `totalsStart`; 0 for fields without a source, and for `days`), the first holding the total, except
    /// for a source in the current window, which keeps one total per window (the events from that window's start
    /// on); then per field the code the app set (from `setCodesStart`; 0 where unset).
    private(set) var facts: [Double]
    /// The codes of the fields the app set, by field index.
    public private(set) var setCodes: [Int: Int] = [:]

    var schema: Schema { layout.schema }
    var sumsStart: Int { layout.sumsStart }
    var totalsStart: Int { layout.totalsStart }
    var setCodesStart: Int { layout.setCodesStart }

    /// Nothing logged yet.
    public init(schema: Schema) {
        layout = Layout(schema: schema)
        facts = Array(repeating: 0, count: layout.setCodesStart + schema.fields.count)
    }

    /// Adds a logged event.
    public mutating func log(_ logged: LoggedEvent) {
        guard logged.event < sumsStart, logged.event >= 0 else { return }
        facts[logged.event] += 1
        // Amounts are summed in whole minor units of the event's currency, as the generated code sums them.
        let layout = self.layout
        let unit = layout.unitsPerWhole[logged.event]
        let amount = logged.amount ?? 0
        let sum = sumsStart + logged.event
        facts[sum] = MinorUnitSum.adding(amount, to: facts[sum], unitsPerWhole: unit)
        for feed in layout.feedsOfEvent[logged.event] {
            let (index, counted, scope) = layout.feeds[feed]
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
                for (position, start) in layout.windowStarts.enumerated() where logged.hour >= start {
                    let slot = totalsStart + index * Self.slots + position
                    facts[slot] = Self.add(amount, to: facts[slot], counted: counted, unit: unit)
                }
            }
        }
    }

    /// Source totals per field: one per window.
    static let slots = ConversionWindow.allCases.count

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
        guard case let source? = layout.fieldSources[index] else { return nil }
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
