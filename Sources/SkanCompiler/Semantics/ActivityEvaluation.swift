public import SkanCore

/// One event the app logged: which (an index in `Schema.events`), when (hours after first launch), and, for a
/// value event, its amount.
public struct LoggedEvent: Hashable, Sendable {
    /// The index of the event in `Schema.events`.
    public var event: Int
    /// Hours after first launch.
    public var hour: Double
    /// The amount of a value event; nil for a counted one.
    public var amount: Double?

    /// An event logged at `hour`, with `amount` for a value event.
    public init(event: Int, hour: Double, amount: Double? = nil) {
        self.event = event
        self.hour = hour
        self.amount = amount
    }
}

/// What the app did, as the reference semantics read it: the events it logged, in hour order, and the codes
/// it set on the fields it sets itself.
public struct Activity: Hashable, Sendable {
    /// The events, in the order logged (hours never go back).
    public var events: [LoggedEvent]
    /// The code of each app-set field the app set, by field index; unset fields hold 0.
    public var setCodes: [Int: Int]

    /// An activity; empty by default.
    public init(events: [LoggedEvent] = [], setCodes: [Int: Int] = [:]) {
        self.events = events
        self.setCodes = setCodes
    }
}

/// A schema evaluated on an activity at an hour: the state, the window, and what the updater would send.
public struct ActivityEvaluation: Hashable, Sendable {
    /// Each field's code, app-set and derived.
    public var state: SchemaState
    /// The fine value of `state`.
    public var fineValue: Int
    /// The window at the hour; nil after the last (hour 840).
    public var window: ConversionWindow?
    /// The coarse value in `window`; nil after the last window.
    public var coarseValue: CoarseValue?
    /// Whether `window` locks at this update.
    public var lock: Bool
    /// Per field, the number a derived `buckets` or `count` field measured (the amount or count its case was
    /// chosen by); nil for the other fields. What a postback's range stands for, as ground truth.
    public var measures: [Double?]
}

extension Schema {
    /// The reference semantics of events and time: every field's code at `hour` (app-set fields as the activity
    /// set them, derived ones from the events logged up to `hour`, in declaration order), then the coarse value
    /// and lock of the window at `hour`. Conditions read counts and sums since first launch and the hour; sources
    /// read their own scope.
    public func evaluate(_ activity: Activity, at hour: Double) -> ActivityEvaluation {
        let logged = activity.events.filter { $0.hour <= hour }
        let facts = ActivityTotals(events: logged, hour: hour, eventCount: events.count)
        let window = ConversionWindow.allCases.first { hour < Double($0.hours.upperBound) }
        var codes = Array(repeating: 0, count: fields.count)
        var measures = [Double?](repeating: nil, count: fields.count)
        for (index, field) in fields.enumerated() {
            // Derived conditions read the fields before this one, which are final by now (later ones still 0).
            (codes[index], measures[index]) = code(
                of: field, index: index, earlier: codes, activity: activity, logged: logged, facts: facts)
        }
        let state = SchemaState(codes: codes)
        let coarse = window.flatMap { window in
            coarseRules(window: window).first { $0.condition.holds(for: codes, facts: facts) }?.value
        }
        let lock = window.map { lockCondition(window: $0)?.holds(for: codes, facts: facts) ?? false } ?? false
        return ActivityEvaluation(
            state: state, fineValue: fineValue(of: state), window: window, coarseValue: coarse, lock: lock,
            measures: measures)
    }

    /// The field's code, and for a `buckets` or `count` field the number it was chosen by.
    private func code(
        of field: Field, index: Int, earlier codes: [Int], activity: Activity, logged: [LoggedEvent],
        facts: ActivityTotals
    ) -> (code: Int, measure: Double?) {
        let hour = facts.hours
        switch field.derivation {
        case nil:
            return (activity.setCodes[index] ?? 0, nil)
        case .flag(let condition):
            return (condition.holds(for: codes, facts: facts) ? 1 : 0, nil)
        case .firstMatch(let conditions):
            let chosen = conditions.firstIndex { $0.holds(for: codes, facts: facts) } ?? (field.cases.count - 1)
            return (field.cases[chosen].code, nil)
        case .buckets(let source):
            let value = measure(source, logged: logged, hour: hour)
            return ((field.bucketCase(for: value) ?? field.nearestBucketCase(for: value))?.code ?? 0, value)
        case .count(let source):
            let value = measure(source, logged: logged, hour: hour)
            return (min(Int(max(value, 0)), field.bits.maximumCode), value)
        }
    }

    /// The number a source gives at `hour`.
    public func measure(_ source: ActivitySource, logged: [LoggedEvent], hour: Double) -> Double {
        if source.measure == .days { return (max(hour, 0) / 24).rounded(.down) }
        let since: Double
        let before: Double
        switch source.scope {
        case .sinceFirstLaunch: (since, before) = (-.infinity, .infinity)
        case .within(let hours): (since, before) = (-.infinity, hours)
        case .inWindow:
            let window = ConversionWindow.allCases.first { hour < Double($0.hours.upperBound) } ?? .third
            (since, before) = (Double(window.hours.lowerBound), .infinity)
        }
        let counted = logged.filter { source.events.contains($0.event) && $0.hour >= since && $0.hour < before }
        return source.measure == .count ? Double(counted.count) : counted.reduce(0) { $0 + ($1.amount ?? 0) }
    }
}

/// Counts and sums since first launch of the events logged so far, and the hour: what conditions read.
private struct ActivityTotals: ActivityFacts {
    let counts: [Double]
    let sums: [Double]
    let hours: Double

    init(events: [LoggedEvent], hour: Double, eventCount: Int) {
        var counts = Array(repeating: 0.0, count: eventCount)
        var sums = Array(repeating: 0.0, count: eventCount)
        for event in events where event.event < eventCount {
            counts[event.event] += 1
            sums[event.event] += event.amount ?? 0
        }
        (self.counts, self.sums, self.hours) = (counts, sums, hour)
    }

    func count(of event: Int) -> Double { event < counts.count ? counts[event] : 0 }
    func sum(of event: Int) -> Double { event < sums.count ? sums[event] : 0 }
}
