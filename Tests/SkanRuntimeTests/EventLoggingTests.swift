import Foundation
import GeneratedPublic
import SkanCore
import SkanRuntime
import Testing

/// The updater on a schema with events (Schemas/Game.skan): it logs the app's events at their hour, keeps the
/// activity with the state, moves time on at `apply()` (in-window counts, time locks), and a relaunch continues
/// the same activity.
@Suite struct EventLoggingTests {
    @Test func eventsDriveTheValuesAndTimeLocksAtTheirHour() async throws {
        let clock = TestClock()
        let client = RecordingPostbackClient(frameworks: [.adAttributionKit])
        let store = InMemoryConversionValueStore()
        let updater = ConversionValueUpdater<Game>(store: store, client: client, clock: clock)
        let start = try #require(await updater.windowsStart)
        #expect(try await updater.log(.sign_up)?.fineValue == 1)
        clock.set(hours: 3.5, after: start)
        #expect(try await updater.log(.purchase(amount: 4.99))?.fineValue == 27)
        clock.set(hours: 20, after: start)
        let mid = try await updater.log(.purchase(amount: 10))
        #expect(mid == ConversionValueUpdate(window: .first, fineValue: 29, coarseValue: .high, lockWindow: false))
        // `lock window 1 after 36 hours`: the first update at or after hour 36 locks.
        clock.set(hours: 36, after: start)
        #expect(try await updater.apply()?.lockWindow == true)
        clock.set(hours: 40, after: start)
        #expect(try await updater.log(.add_to_cart) == nil)
        // Window 2: two purchases give high; a $40 purchase makes the sum 54.99 and locks window 2.
        clock.set(hours: 50, after: start)
        let second = try await updater.log(.purchase(amount: 40))
        #expect(second == ConversionValueUpdate(window: .second, fineValue: 29, coarseValue: .high, lockWindow: true))
        #expect(await client.updates(through: .adAttributionKit).map(\.fineValue) == [1, 27, 29, 29, 29])
    }

    /// In Developer Mode the schema's hours run on the short windows: window 1's 3 minutes are its 48 hours, so
    /// `lock window 1 after 36 hours` locks at minute 2.25 after the first update and `in window` restarts at
    /// minute 3.
    @Test func developerModeStretchesTheShortWindowsOntoTheSchemasHours() async throws {
        let clock = TestClock()
        let client = RecordingPostbackClient(frameworks: [.adAttributionKit])
        let updater = ConversionValueUpdater<Game>(
            schedule: .developerMode, store: InMemoryConversionValueStore(), client: client, clock: clock)
        #expect(await updater.hoursSinceStart == 0)
        #expect(try await updater.log(.level_complete)?.fineValue == 32)
        let firstUpdate = try #require(await updater.windowsStart)
        clock.set(hours: 0, seconds: 90, after: firstUpdate)
        #expect(await updater.hoursSinceStart == 24)
        // `browsed` holds from hour 24 on.
        #expect(try await updater.apply()?.fineValue == 32 | 1 << 3)
        clock.set(hours: 0, seconds: 135, after: firstUpdate)
        #expect(try await updater.apply()?.lockWindow == true)
        // Window 2 begins at minute 3, hour 48: the level of window 1 no longer counts in window.
        clock.set(hours: 0, seconds: 180, after: firstUpdate)
        #expect(await updater.hoursSinceStart == 48)
        #expect(try await updater.apply()?.window == .second)
        #expect(await updater.state.levels == Game.Levels.none)
        #expect(ConversionWindow.Schedule.developerMode.scheduleHours(afterSeconds: 270) == 108)
        #expect(ConversionWindow.Schedule.developerMode.scheduleHours(afterSeconds: 450) == 504)
        #expect(ConversionWindow.Schedule.production.scheduleHours(afterSeconds: 7_200) == 2)
        #expect(ConversionWindow.Schedule.developerMode.scheduleHours(afterSeconds: 540 + 3_600) == 841)
    }

    @Test func aRelaunchContinuesTheSameActivity() async throws {
        let clock = TestClock()
        let store = InMemoryConversionValueStore()
        let first = ConversionValueUpdater<Game>(store: store, client: RecordingPostbackClient(), clock: clock)
        let start = try #require(await first.windowsStart)
        clock.set(hours: 1, after: start)
        try await first.log(.level_complete)
        try await first.log(.purchase(amount: 3))
        #expect(store.load()?.activity != nil)

        clock.set(hours: 30, after: start)
        let relaunched = ConversionValueUpdater<Game>(store: store, client: RecordingPostbackClient(), clock: clock)
        #expect(await relaunched.state.activity.counts == [0, 1, 0, 0, 1, 0])
        #expect(await relaunched.state.levels == .some)
        // Two more purchases after the relaunch: the count is the whole journey's.
        try await relaunched.log(.purchase(amount: 1))
        clock.set(hours: 60, after: start)
        let window2 = try await relaunched.log(.purchase(amount: 1))
        #expect(window2?.coarseValue == .high)
        #expect(await relaunched.state.activity.counts[4] == 3)
        // In window 2 the level of hour 1 no longer counts.
        #expect(await relaunched.state.levels == Game.Levels.none)
    }

    @Test func schemasWithoutEventsKeepNoActivity() async throws {
        let store = InMemoryConversionValueStore()
        let (updater, _, _, _) = makeUpdater(Shop.self, store: store)
        try await updater.record { $0.registered = true }
        #expect(store.load()?.activity == nil)
    }
}
