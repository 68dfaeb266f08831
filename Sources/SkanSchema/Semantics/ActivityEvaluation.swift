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
    /// The coarse value in `window`; nil after the last window and where a `nothing` rule holds.
    public var coarseValue: CoarseValue?
    /// Whether the app sends an update: in a window, and no `nothing` rule holds.
    public var sends: Bool
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
    /// read their own scope. One evaluation of `RunningActivity`, which keeps the same answer up to date.
    public func evaluate(_ activity: Activity, at hour: Double) -> ActivityEvaluation {
        var running = RunningActivity(schema: self)
        for event in activity.events where event.hour <= hour { running.log(event) }
        for (index, code) in activity.setCodes { running.set(field: index, code: code) }
        return running.evaluate(at: hour)
    }
}
