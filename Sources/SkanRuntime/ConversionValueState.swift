public import Foundation

/// What the runtime needs from a generated schema type. Every type `skanc generate` writes has these
/// members, so an app conforms it with one empty extension: `extension Shop: ConversionValueState {}`.
/// (Generated code does not import this library; the conformance lives in the app.)
public protocol ConversionValueState: Sendable, Equatable {
    associatedtype Coarse: RawRepresentable where Coarse.RawValue == String

    /// The state before anything happened.
    init()
    /// The state a fine value encodes; throws for values that are no state of the schema.
    init(fineValue: Int) throws
    /// The fine conversion value, 0...63.
    var fineValue: Int { get }
    /// The generated `Window` type: raw values 1, 2 and 3.
    associatedtype Window: RawRepresentable where Window.RawValue == Int
    /// The coarse value in a conversion window; its raw value is `low`, `medium` or `high`.
    func coarseValue(in window: Window) -> Coarse
    /// Whether to lock a conversion window in this state.
    func shouldLock(in window: Window) -> Bool
    /// Whether the app sends an update in a conversion window in this state: false where the schema says
    /// `nothing` (generated for such schemas; every other state sends).
    func sendsUpdate(in window: Window) -> Bool

    /// The activity to keep between launches, encoded; nil for a schema without events (the default).
    func persistedActivity() -> Data?
    /// Takes back an activity `persistedActivity()` gave; nothing for a schema without events.
    mutating func restorePersistedActivity(_ data: Data)
    /// Moves a schema's time on to `hour` after the conversion's start; nothing for a schema without events.
    mutating func advanceActivity(to hour: Double)
}

extension ConversionValueState {
    /// Every state sends: the schema has no `nothing` rule.
    public func sendsUpdate(in window: Window) -> Bool { true }
    /// None: the fine value is the whole state.
    public func persistedActivity() -> Data? { nil }
    /// Nothing to restore.
    public mutating func restorePersistedActivity(_ data: Data) {}
    /// No time to move.
    public mutating func advanceActivity(to hour: Double) {}
}

/// What the runtime needs from the generated type of a schema with events and time (every type `skanc generate`
/// writes for one has these members): `extension Game: EventConversionValueState {}`. The updater then logs the
/// app's events (`log(_:)`), keeps the activity with the state, and moves time on at each `apply()`.
public protocol EventConversionValueState: ConversionValueState {
    /// The generated `Event`: a case per event, with the amount for value events.
    associatedtype Event: Sendable
    /// The generated `Activity`: running counts and sums.
    associatedtype Activity: Codable, Sendable, Hashable
    /// What was logged so far.
    var activity: Activity { get }
    /// Logs `event` at `hour` (hours since the conversion's start) and derives the derived fields.
    mutating func log(_ event: Event, at hour: Double)
    /// Moves time on to `hour`.
    mutating func advance(to hour: Double)
    /// Takes a kept activity and derives the derived fields from it.
    mutating func restore(_ activity: Activity)
}

extension EventConversionValueState {
    /// The activity as JSON.
    public func persistedActivity() -> Data? { try? JSONEncoder().encode(activity) }
    /// The activity read back from JSON; a damaged one is left out (the state keeps its fine value's fields).
    public mutating func restorePersistedActivity(_ data: Data) {
        if let activity = try? JSONDecoder().decode(Activity.self, from: data) { restore(activity) }
    }
    /// `advance(to:)`.
    public mutating func advanceActivity(to hour: Double) { advance(to: hour) }
}
