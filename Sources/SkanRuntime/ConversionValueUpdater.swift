public import Foundation
// The vocabulary the runtime's API uses (`ConversionWindow`, `PerWindow`, `CoarseValue`) lives in SkanVocabulary,
// shared with the tools: an app that imports SkanRuntime alone sees it as part of this module, and nothing else of
// the tools'.
@_exported public import SkanVocabulary

/// The one place an app tells the system about conversion values. Call `record` whenever an event
/// happens; the updater merges the change into the persisted state, works out the current window, computes
/// fine value, coarse value and lock from the schema, and sends them to each framework once (in the order
/// `AttributionFramework.sendingOrder(locking:)` gives); no call when that framework already has the values in this
/// window, none after it locked the window, none after the last window.
///
/// One updater serves one conversion: the install (windows from first launch), or one re-engagement (windows
/// from the open, AdAttributionKit only), each with a state of its own. The updaters of one app share a
/// `PostbackCoordinator` (`PostbackCoordinator.shared` by default), which keeps the install's updates out of the
/// re-engagements' postbacks.
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
    /// The conversion these values are for.
    public nonisolated let conversion: Conversion
    /// When the windows end.
    public nonisolated let schedule: ConversionWindow.Schedule
    private let conversionStart: Date
    private var stored: StoredConversionState
    private let store: any ConversionValueStore
    private let client: PostbackCoordinator
    private let clock: any ConversionClock
    private let options: Options
    /// The sends in flight, so that they reach the system in the order their updates were decided.
    private var lastSend: Task<[AttributionFramework: any Error], Never>?

    /// An updater for `conversion` (the install by default).
    ///
    /// - Parameters:
    ///   - firstLaunch: for the install, when the app first ran, if the app knows it (an app that adopts the
    ///     runtime in an update, or makes the updater only when it first needs it, should pass it: iOS counts the
    ///     windows from the first launch). It is stored and wins over a stored date. When nil, the stored date is
    ///     used, or, the first time, now.
    ///   - schedule: `.production`, or `.developerMode` in debug builds on a device in Developer Mode.
    ///   - store: UserDefaults by default on Apple platforms (`skanc.<State>` for the install,
    ///     `skanc.<State>.reengagement.<tag>` for a re-engagement), memory elsewhere.
    ///   - client: `PostbackCoordinator.shared` by default: the system's frameworks on iOS, a recording client
    ///     elsewhere. Any other client is sent through `PostbackCoordinator.coordinator(for:)`, the one
    ///     coordinator of every updater given that client. A re-engagement's updater is known to its coordinator
    ///     from here on: keep it while the re-engagement's windows last (or make it again from the same open).
    public init(
        conversion: Conversion = .install, firstLaunch: Date? = nil, schedule: ConversionWindow.Schedule = .production,
        store: (any ConversionValueStore)? = nil, client: (any PostbackClient)? = nil,
        clock: any ConversionClock = SystemClock(), options: Options = Options()
    ) {
        let store = store ?? ConversionValueUpdater.defaultStore(for: conversion)
        self.store = store
        self.client = client.map(PostbackCoordinator.coordinator(for:)) ?? PostbackCoordinator.shared
        self.clock = clock
        self.options = options
        self.conversion = conversion
        self.schedule = schedule
        let opened: Date?
        switch conversion {
        case .install:
            opened = nil
            if let firstLaunch {
                conversionStart = firstLaunch
                store.saveFirstLaunch(firstLaunch)
            } else if let saved = store.loadFirstLaunch() {
                conversionStart = saved
            } else {
                conversionStart = clock.now
                store.saveFirstLaunch(conversionStart)
            }
        case .reengagement(let open):
            opened = open.openedAt
            conversionStart = open.openedAt
        }
        if let saved = store.load(), saved.opened == opened {
            stored = saved
            // A value this schema cannot read back (a damaged store) starts over, inside the same windows.
            state = (try? State(fineValue: saved.fineValue)) ?? State()
            if let activity = saved.activity { state.restorePersistedActivity(activity) }
            stored.fineValue = state.fineValue
        } else {
            // Nothing stored, or the state of an earlier re-engagement: this one starts afresh.
            state = State()
            stored = StoredConversionState(fineValue: state.fineValue, opened: opened)
            store.save(stored)
        }
        if case .reengagement(let open) = conversion { self.client.register(self, for: open) }
    }

    /// When the windows started: first launch or the open; in Developer Mode the first update, nil before it.
    public var windowsStart: Date? {
        schedule.countsFromFirstUpdate ? stored.firstUpdate : conversionStart
    }

    /// The window now, or nil after the last one, and nil once the first update is overdue (no update was sent
    /// within `Conversion.firstUpdateDeadline` of the start: the conversion gets no postback). In Developer Mode,
    /// window 1 until the first update.
    public var currentWindow: State.Window? {
        if !hasSentAnUpdate, clock.now.timeIntervalSince(conversionStart) >= conversion.firstUpdateDeadline {
            return nil
        }
        return schedule.window(at: clock.now, since: windowsStart ?? clock.now).flatMap {
            State.Window(rawValue: $0.number)
        }
    }

    /// Applies `change` to the state and sends the resulting values to every framework that does not have
    /// them in this window yet. Returns the update sent, or nil when none was needed. When a framework
    /// refuses, throws `ConversionValueUpdateError`; the state change is kept, the frameworks that took
    /// the update keep it, and the next call sends it again to the ones whose refusal was transient.
    @discardableResult
    public func record(_ change: @Sendable (inout State) -> Void) async throws -> ConversionValueUpdate? {
        change(&state)
        keepState()
        return try await apply()
    }

    /// Whether a framework took an update of this conversion (a state stored before `firstUpdate` was kept counts
    /// by its sends).
    private var hasSentAnUpdate: Bool {
        stored.firstUpdate != nil || !stored.skAdNetwork.isEmpty || !stored.adAttributionKit.isEmpty
    }

    /// Hours since the conversion's start (first launch, or the open): the clock of events and time conditions.
    /// In Developer Mode, the production hour the time since the first update stands for (window 1's minute 1.5
    /// is hour 24; `Schedule.scheduleHours(afterSeconds:)`), 0 before the first update.
    public var hoursSinceStart: Double {
        guard schedule.countsFromFirstUpdate else {
            return max(0, clock.now.timeIntervalSince(conversionStart) / 3_600)
        }
        guard let start = windowsStart else { return 0 }
        return schedule.scheduleHours(afterSeconds: clock.now.timeIntervalSince(start))
    }

    private func keepState() {
        stored.fineValue = state.fineValue
        stored.activity = state.persistedActivity()
        store.save(stored)
    }

    /// Sends the current values to every framework that does not have them in this window; call it at
    /// launch so that every window gets an update (the system sends a postback for a window only after
    /// one).
    @discardableResult
    public func apply() async throws -> ConversionValueUpdate? {
        try await apply(reasserting: false)
    }

    /// `apply()`; when `reasserting`, the values are sent again to frameworks that took them already (another
    /// conversion's update may have reached this conversion's postback since), though never into a locked window.
    private func apply(reasserting: Bool) async throws -> ConversionValueUpdate? {
        // Time moves on for a schema with events (windows of in-window counts, `hours`, time locks); for any other
        // schema both calls do nothing.
        state.advanceActivity(to: hoursSinceStart)
        if let activity = state.persistedActivity() {
            stored.activity = activity
            store.save(stored)
        }
        guard let current = currentWindow, let conversionWindow = ConversionWindow(number: current.rawValue) else {
            return nil
        }
        // A `nothing` rule: no update in this window for this state, so neither values nor a lock are sent.
        guard state.sendsUpdate(in: current) else { return nil }
        let window = conversionWindow.number
        var fine = state.fineValue
        if options.increaseOnly, let highest = stored.highestFineValueSent { fine = max(fine, highest) }
        let update = ConversionValueUpdate(
            window: conversionWindow, fineValue: fine,
            coarseValue: CoarseConversion(rawValue: state.coarseValue(in: current).rawValue) ?? .low,
            lockWindow: state.shouldLock(in: current))
        let refusedConversion = stored.refusedConversion ?? []
        let reached = self.client.frameworks(for: self.conversion)
        let due = AttributionFramework.sendingOrder(locking: update.lockWindow).filter { framework in
            let previous = stored[framework][window]
            return reached.contains(framework) && !refusedConversion.contains(framework)
                && previous?.lockWindow != true && (reasserting || previous != update)
        }
        guard !due.isEmpty else { return nil }

        // Claim the update before waiting, so a concurrent call does not send it again.
        let before = stored
        for framework in due { stored[framework][window] = update }
        stored.highestFineValueSent = max(before.highestFineValueSent ?? fine, fine)
        if stored.firstUpdate == nil { stored.firstUpdate = clock.now }
        store.save(stored)

        let earlier = lastSend
        let (client, conversion) = (self.client, self.conversion)
        let send = Task {
            _ = await earlier?.value
            // Every framework is tried, whatever the others answer.
            var failures: [AttributionFramework: any Error] = [:]
            for framework in due {
                do {
                    try await client.send(update, of: conversion, through: framework)
                } catch {
                    failures[framework] = error
                }
            }
            return failures
        }
        lastSend = send
        let failures = await send.value
        guard failures.isEmpty else {
            throw forget(update, refusedBy: failures, of: due, restoring: before)
        }
        return update
    }

    /// Undoes the claim where a framework refused transiently (unless a later call claimed something else), keeps
    /// it where the refusal is permanent, and returns the error to throw.
    private func forget(
        _ update: ConversionValueUpdate, refusedBy failures: [AttributionFramework: any Error],
        of due: [AttributionFramework], restoring before: StoredConversionState
    ) -> ConversionValueUpdateError {
        let window = update.window.number
        var refusals: [AttributionFramework: PostbackRefusal] = [:]
        for (framework, error) in failures {
            let refusal = client.refusal(error, from: framework)
            refusals[framework] = refusal
            switch refusal {
            case .transient:
                if stored[framework][window] == update { stored[framework][window] = before[framework][window] }
            case .update:
                break
            case .conversion:
                stored.refusedConversion = (stored.refusedConversion ?? []) + [framework]
            }
        }
        if refusals.count == due.count, refusals.values.allSatisfy({ $0 == .transient }) {
            // Nothing took the update: it counts neither as sent nor as the first update.
            if stored.highestFineValueSent == max(before.highestFineValueSent ?? update.fineValue, update.fineValue) {
                stored.highestFineValueSent = before.highestFineValueSent
            }
            if before.firstUpdate == nil { stored.firstUpdate = nil }
        }
        store.save(stored)
        return ConversionValueUpdateError(
            update: update, failures: failures, accepted: due.filter { failures[$0] == nil }, refusals: refusals)
    }

    private static func defaultStore(for conversion: Conversion) -> any ConversionValueStore {
        #if canImport(Darwin)
        let key = "skanc.\(String(describing: State.self))"
        switch conversion {
        case .install:
            return UserDefaultsConversionValueStore(key: key)
        case .reengagement(let open):
            return UserDefaultsConversionValueStore(key: "\(key).reengagement.\(open.conversionTag ?? "untagged")")
        }
        #else
        InMemoryConversionValueStore()
        #endif
    }
}

extension ConversionValueUpdater: ReengagementUpdating {
    var conversionStatus: ReengagementStatus {
        if stored.refusedConversion?.contains(.adAttributionKit) == true { return .refused }
        return currentWindow == nil ? .over : .open
    }

    func reassert() async {
        _ = try? await apply(reasserting: true)
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

extension ConversionValueUpdater where State: EventConversionValueState {
    /// Logs `event` now (hours since the conversion's start), keeps the activity, and sends the values it leads to,
    /// as `record` does.
    @discardableResult
    public func log(_ event: State.Event) async throws -> ConversionValueUpdate? {
        let hour = hoursSinceStart
        return try await record { $0.log(event, at: hour) }
    }
}
