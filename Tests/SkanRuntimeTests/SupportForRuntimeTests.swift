import Foundation
import GeneratedPublic
import SkanRuntime

// The one line an app writes per schema.
extension Shop: ConversionValueState {}
extension Subscription: ConversionValueState {}

/// A clock the test moves by hand.
final class TestClock: ConversionClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        current = start
    }

    var now: Date { lock.withLock { current } }

    /// Moves to `days` (fractions allowed) after `origin`.
    func set(day days: Double, after origin: Date) {
        lock.withLock { current = origin.addingTimeInterval(days * 86_400) }
    }
}

/// An updater over a fresh in-memory store and a recording client, at day 0.
func makeUpdater<State: ConversionValueState>(
    _ type: State.Type, options: ConversionValueUpdater<State>.Options = .init(),
    store: InMemoryConversionValueStore = InMemoryConversionValueStore(), clock: TestClock = TestClock()
) -> (ConversionValueUpdater<State>, RecordingPostbackClient, TestClock, InMemoryConversionValueStore) {
    let client = RecordingPostbackClient()
    let updater = ConversionValueUpdater<State>(store: store, client: client, clock: clock, options: options)
    return (updater, client, clock, store)
}
