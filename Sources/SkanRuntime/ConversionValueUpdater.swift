import Foundation

/// The one place an app tells the system about conversion values. Call `record` whenever an event
/// happens; the updater merges the change into the persisted state, works out the current window from the
/// first-launch date, computes fine value, coarse value and lock from the schema, and sends them once:
/// no call when nothing changed in this window, none after the window is locked, none after day 35.
///
/// ```swift
/// extension Shop: ConversionValueState {}
/// let updater = ConversionValueUpdater<Shop>()
/// try await updater.record { $0.registered = true }
/// ```
public actor ConversionValueUpdater<State: ConversionValueState> {
    public struct Options: Sendable {
        /// For SKAdNetwork 3 and earlier, which count an update only when the value grows: never send a
        /// fine value lower than one sent before (the higher one is sent again instead).
        public var increaseOnly: Bool

        public init(increaseOnly: Bool = false) {
            self.increaseOnly = increaseOnly
        }
    }

    public private(set) var state: State
    private var stored: StoredConversionState
    private let store: any ConversionValueStore
    private let client: any PostbackClient
    private let clock: any ConversionClock
    private let options: Options
    /// The send in flight, so that sends reach the system in the order their updates were decided.
    private var lastSend: Task<Void, any Error>?

    public init(
        store: (any ConversionValueStore)? = nil, client: (any PostbackClient)? = nil,
        clock: any ConversionClock = SystemClock(), options: Options = Options()
    ) {
        let store = store ?? ConversionValueUpdater.defaultStore()
        self.store = store
        self.client = client ?? defaultPostbackClient()
        self.clock = clock
        self.options = options
        if let saved = store.load() {
            stored = saved
            // A value from another layout version cannot be read back: start over, keeping the windows.
            state = (try? State(fineValue: saved.fineValue)) ?? State()
            stored.fineValue = state.fineValue
        } else {
            state = State()
            stored = StoredConversionState(firstLaunch: clock.now, fineValue: state.fineValue)
            store.save(stored)
        }
    }

    /// The first-launch date the windows count from.
    public var firstLaunch: Date { stored.firstLaunch }

    /// The window now: 1, 2, 3, or nil after day 35.
    public var currentWindow: Int? {
        ConversionWindow.window(at: clock.now, firstLaunch: stored.firstLaunch)
    }

    /// Applies `change` to the state and sends the resulting values if they differ from what this window
    /// already has. Returns the update sent, or nil when none was needed. Throws the system's error; the
    /// state change is kept and the update is tried again on the next call.
    @discardableResult
    public func record(_ change: @Sendable (inout State) -> Void) async throws -> PostbackUpdate? {
        change(&state)
        stored.fineValue = state.fineValue
        store.save(stored)
        return try await apply()
    }

    /// Sends the current values if this window does not have them yet; call it at launch so that every
    /// window gets an update (the system sends a postback for a window only after one).
    @discardableResult
    public func apply() async throws -> PostbackUpdate? {
        guard let window = currentWindow else { return nil }
        let previous = stored.applied[window]
        if previous?.lockWindow == true { return nil }
        var fine = state.fineValue
        if options.increaseOnly, let highest = stored.highestFineValueSent { fine = max(fine, highest) }
        let update = PostbackUpdate(
            window: window, fineValue: fine,
            coarseValue: CoarseConversion(rawValue: state.coarseValue(window: window).rawValue) ?? .low,
            lockWindow: state.shouldLock(window: window))
        if update == previous { return nil }

        // Claim the update before waiting, so a concurrent call does not send it again.
        let previousHighest = stored.highestFineValueSent
        stored.applied[window] = update
        stored.highestFineValueSent = max(previousHighest ?? fine, fine)
        store.save(stored)
        let earlier = lastSend
        let client = self.client
        let send = Task {
            _ = await earlier?.result
            try await client.send(update)
        }
        lastSend = send
        do {
            try await send.value
        } catch {
            if stored.applied[window] == update {
                stored.applied[window] = previous
                stored.highestFineValueSent = previousHighest
                store.save(stored)
            }
            throw error
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
