public import Foundation
import SkanCore

/// The one place an app tells the system about conversion values. Call `record` whenever an event
/// happens; the updater merges the change into the persisted state, works out the current window from the
/// first-launch date, computes fine value, coarse value and lock from the schema, and sends them to each
/// framework once: no call when that framework already has the values in this window, none after it
/// locked the window, none after the last window.
///
/// ```swift
/// extension Shop: ConversionValueState {}
/// let updater = ConversionValueUpdater<Shop>()
/// try await updater.record { $0.registered = true }
/// ```
public actor ConversionValueUpdater<State: ConversionValueState> {
    /// How the updater chooses values.
    public struct Options: Sendable {
        /// For SKAdNetwork 3 and earlier, which count an update only when the value grows: never send a
        /// fine value lower than one sent before (the higher one is sent again instead).
        public var increaseOnly: Bool

        /// Options; by default the latest value is sent, whether it grows or not.
        public init(increaseOnly: Bool = false) {
            self.increaseOnly = increaseOnly
        }
    }

    /// The current state, as the app's changes left it.
    public private(set) var state: State
    /// The first-launch date the windows count from.
    public let firstLaunch: Date
    private var stored: StoredConversionState
    private let store: any ConversionValueStore
    private let client: any PostbackClient
    private let clock: any ConversionClock
    private let options: Options
    /// The sends in flight, so that they reach the system in the order their updates were decided.
    private var lastSend: Task<[AttributionFramework: any Error], Never>?

    /// An updater. `store` defaults to UserDefaults under `skanc.<State>` on Apple platforms (memory elsewhere), `client` to `SystemPostbackClient()` on iOS (a recording client elsewhere), `clock` to the system clock. The first launch is stored on first use.
    public init(
        store: (any ConversionValueStore)? = nil, client: (any PostbackClient)? = nil,
        clock: any ConversionClock = SystemClock(), options: Options = Options()
    ) {
        let store = store ?? ConversionValueUpdater.defaultStore()
        self.store = store
        self.client = client ?? defaultPostbackClient()
        self.clock = clock
        self.options = options
        if let saved = store.loadFirstLaunch() {
            firstLaunch = saved
        } else {
            firstLaunch = clock.now
            store.saveFirstLaunch(firstLaunch)
        }
        if let saved = store.load() {
            stored = saved
            // A value this schema cannot read back (a damaged store) starts over, inside the same windows.
            state = (try? State(fineValue: saved.fineValue)) ?? State()
            stored.fineValue = state.fineValue
        } else {
            state = State()
            stored = StoredConversionState(fineValue: state.fineValue)
            store.save(stored)
        }
    }

    /// The window now, or nil after the last one (840 hours after first launch).
    public var currentWindow: State.Window? {
        ConversionWindow.window(at: clock.now, firstLaunch: firstLaunch).flatMap { State.Window(rawValue: $0.number) }
    }

    /// Applies `change` to the state and sends the resulting values to every framework that does not have
    /// them in this window yet. Returns the update sent, or nil when none was needed. When a framework
    /// refuses, throws `ConversionValueUpdateError`; the state change is kept, the frameworks that took
    /// the update keep it, and the next call sends it again to the ones that refused.
    @discardableResult
    public func record(_ change: @Sendable (inout State) -> Void) async throws -> ConversionValueUpdate? {
        change(&state)
        stored.fineValue = state.fineValue
        store.save(stored)
        return try await apply()
    }

    /// Sends the current values to every framework that does not have them in this window; call it at
    /// launch so that every window gets an update (the system sends a postback for a window only after
    /// one).
    @discardableResult
    public func apply() async throws -> ConversionValueUpdate? {
        guard let current = currentWindow else { return nil }
        let window = current.rawValue
        guard let conversionWindow = ConversionWindow(number: window) else { return nil }
        var fine = state.fineValue
        if options.increaseOnly, let highest = stored.highestFineValueSent { fine = max(fine, highest) }
        let update = ConversionValueUpdate(
            window: conversionWindow, fineValue: fine,
            coarseValue: CoarseConversion(rawValue: state.coarseValue(in: current).rawValue) ?? .low,
            lockWindow: state.shouldLock(in: current))
        let due = client.frameworks.filter { framework in
            let previous = stored[framework][window]
            return previous?.lockWindow != true && previous != update
        }
        guard !due.isEmpty else { return nil }

        // Claim the update before waiting, so a concurrent call does not send it again.
        let previous = Dictionary(uniqueKeysWithValues: due.map { ($0, stored[$0][window]) })
        for framework in due { stored[framework][window] = update }
        let previousHighest = stored.highestFineValueSent
        stored.highestFineValueSent = max(previousHighest ?? fine, fine)
        store.save(stored)

        let earlier = lastSend
        let client = self.client
        let send = Task {
            _ = await earlier?.value
            // Every framework is tried, whatever the others answer.
            var failures: [AttributionFramework: any Error] = [:]
            for framework in due {
                do {
                    try await client.send(update, through: framework)
                } catch {
                    failures[framework] = error
                }
            }
            return failures
        }
        lastSend = send
        let failures = await send.value
        guard failures.isEmpty else {
            // Forget the update only where it was refused, unless a later call claimed something else.
            for framework in failures.keys where stored[framework][window] == update {
                stored[framework][window] = previous[framework] ?? nil
            }
            if failures.count == due.count, stored.highestFineValueSent == max(previousHighest ?? fine, fine) {
                stored.highestFineValueSent = previousHighest
            }
            store.save(stored)
            throw ConversionValueUpdateError(
                update: update, failures: failures, accepted: due.filter { failures[$0] == nil })
        }
        return update
    }

    private static func defaultStore() -> any ConversionValueStore {
        #if canImport(Darwin)
        UserDefaultsConversionValueStore(key: "skanc.\(String(describing: State.self))")
        #else
        InMemoryConversionValueStore()
        #endif
    }
}

/// SKAdNetwork and AdAttributionKit on iOS; a recording client where neither exists.
func defaultPostbackClient() -> any PostbackClient {
    #if canImport(StoreKit) && os(iOS)
    SystemPostbackClient()
    #else
    RecordingPostbackClient()
    #endif
}
