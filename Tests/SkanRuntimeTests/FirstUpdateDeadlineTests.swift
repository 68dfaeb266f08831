import Foundation
import GeneratedPublic
import SkanCore
import SkanRuntime
import Testing

/// Apple gives a conversion's first conversion-value update a deadline ("Receiving ad attributions and
/// postbacks": 60 days after an install, 2 days after a re-engagement); a conversion whose first update comes
/// later gets no postback, so the updater sends none.
@Suite struct FirstUpdateDeadlineTests {
    @Test func theDeadlinesAreApples() {
        #expect(Conversion.install.firstUpdateDeadline == 60 * 24 * 3_600)
        #expect(Conversion.reengagement(ReengagementOpen(openedAt: Date())).firstUpdateDeadline == 48 * 3_600)
    }

    @Test func aReengagementFirstUpdatedAfterTwoDaysSendsNothing() async throws {
        let clock = TestClock()
        let client = RecordingPostbackClient()
        let open = ReengagementOpen(openedAt: clock.now, conversionTag: "late")
        let updater = ConversionValueUpdater<Shop>(
            conversion: .reengagement(open), store: InMemoryConversionValueStore(), client: client, clock: clock)
        clock.set(hours: 48, after: open.openedAt)
        #expect(await updater.currentWindow == nil)
        #expect(try await updater.record { $0.registered = true } == nil)
        // Window 2 is no second chance: the conversion made no first update in time.
        clock.set(hours: 100, after: open.openedAt)
        #expect(try await updater.apply() == nil)
        #expect(await client.sent.isEmpty)
        // The state is kept all the same.
        #expect(await updater.state.registered)
    }

    @Test func aReengagementFirstUpdatedInTimeGoesOnInItsLaterWindows() async throws {
        let clock = TestClock()
        let client = RecordingPostbackClient()
        let open = ReengagementOpen(openedAt: clock.now, conversionTag: "prompt")
        let store = InMemoryConversionValueStore()
        let updater = ConversionValueUpdater<Shop>(
            conversion: .reengagement(open), store: store, client: client, clock: clock)
        clock.set(hours: 48, seconds: -1, after: open.openedAt)
        #expect(try await updater.apply()?.window == .first)
        clock.set(hours: 100, after: open.openedAt)
        // Made again on a later launch from the same open, from what the store kept.
        let relaunched = ConversionValueUpdater<Shop>(
            conversion: .reengagement(open), store: store, client: client, clock: clock)
        #expect(try await relaunched.record { $0.registered = true }?.window == .second)
    }

    @Test func aFirstUpdateThatNoFrameworkTookDoesNotCount() async throws {
        let clock = TestClock()
        let client = RecordingPostbackClient()
        let open = ReengagementOpen(openedAt: clock.now, conversionTag: "offline")
        let updater = ConversionValueUpdater<Shop>(
            conversion: .reengagement(open), store: InMemoryConversionValueStore(), client: client, clock: clock)
        await client.failNext(1, through: .adAttributionKit, refusal: .transient)
        await #expect(throws: ConversionValueUpdateError.self) { try await updater.apply() }
        clock.set(hours: 49, after: open.openedAt)
        #expect(try await updater.apply() == nil)
    }

    @Test func anInstallFirstUpdatedAfterSixtyDaysSendsNothingEvenInDeveloperMode() async throws {
        // Developer Mode counts the windows from the first update, so only the deadline stops a late one.
        let clock = TestClock()
        let launched = clock.now
        clock.set(hours: 60 * 24, seconds: -1, after: launched)
        let client = RecordingPostbackClient()
        let inTime = ConversionValueUpdater<Shop>(
            firstLaunch: launched, schedule: .developerMode, store: InMemoryConversionValueStore(), client: client,
            clock: clock)
        #expect(try await inTime.apply()?.window == .first)
        clock.set(hours: 60 * 24, after: launched)
        let late = ConversionValueUpdater<Shop>(
            firstLaunch: launched, schedule: .developerMode, store: InMemoryConversionValueStore(),
            client: RecordingPostbackClient(), clock: clock)
        #expect(await late.currentWindow == nil)
        #expect(try await late.apply() == nil)
        // The one in time goes on: its windows count from its first update.
        clock.set(hours: 60 * 24, seconds: 200, after: launched)
        #expect(try await inTime.record { $0.registered = true }?.window == .second)
    }

    @Test func aReengagementPastItsDeadlineIsNotTheLatestConversion() async throws {
        // No re-engagement postback exists to protect: the install's update is not followed by the
        // re-engagement's values sent again.
        let clock = TestClock()
        let client = RecordingPostbackClient()
        let install = ConversionValueUpdater<Shop>(
            firstLaunch: clock.now, store: InMemoryConversionValueStore(), client: client, clock: clock)
        let open = ReengagementOpen(openedAt: clock.now, conversionTag: "never-updated")
        let reengagement = ConversionValueUpdater<Shop>(
            conversion: .reengagement(open), store: InMemoryConversionValueStore(), client: client, clock: clock)
        clock.set(hours: 50, after: open.openedAt)
        #expect(await reengagement.currentWindow == nil)
        #expect(try await install.record { $0.paymentTier = .high }?.window == .second)
        let sent = await client.sent
        #expect(sent.map(\.framework).sorted { $0.rawValue < $1.rawValue } == [.adAttributionKit, .skAdNetwork])
        #expect(sent.allSatisfy { $0.conversion == .install })
    }
}
