import Foundation
import GeneratedPublic
public import SkanRuntime

// The one line an app writes per schema.
extension Shop: ConversionValueState {}
extension ShopV4: ConversionValueState {}
extension Subscription: ConversionValueState {}
extension Quiet: ConversionValueState {}

/// A clock the test moves by hand.
final class TestClock: ConversionClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        current = start
    }

    var now: Date { lock.withLock { current } }

    /// Moves to `hours` and `seconds` after `origin`.
    func set(hours: Double, seconds: Double = 0, after origin: Date) {
        lock.withLock { current = origin.addingTimeInterval(hours * 3_600 + seconds) }
    }
}

/// An updater over a fresh in-memory store and a recording client, at hour 0.
func makeUpdater<State: ConversionValueState>(
    _ type: State.Type, options: ConversionValueUpdater<State>.Options = .init(),
    store: InMemoryConversionValueStore = InMemoryConversionValueStore(), clock: TestClock = TestClock(),
    frameworks: [AttributionFramework] = AttributionFramework.allCases
) -> (ConversionValueUpdater<State>, RecordingPostbackClient, TestClock, InMemoryConversionValueStore) {
    let client = RecordingPostbackClient(frameworks: frameworks)
    let updater = ConversionValueUpdater<State>(store: store, client: client, clock: clock, options: options)
    return (updater, client, clock, store)
}
extension Game: EventConversionValueState {}
