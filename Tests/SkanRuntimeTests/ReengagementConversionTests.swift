import Foundation
import GeneratedPublic
import SkanCore
import SkanRuntime
import Testing

/// A re-engagement is a conversion of its own (AdAttributionKit, "Receiving ad attributions and postbacks"): its
/// windows count from the open, each conversion tag has its own state, only AdAttributionKit hears of it, and the
/// install's conversion goes on as before.
@Suite struct ReengagementConversionTests {
    /// A universal link as AdAttributionKit opens it from a re-engagement ad on iOS 18.4 (the app's own query
    /// items kept).
    static let openURL = URL(
        string: "https://shop.example.com/product/42?utm_source=network&AdAttributionKitReengagementOpen=3F2A9C10-7B")!

    @Test func theTagIsReadFromARealOpenURL() throws {
        let opened = Date(timeIntervalSince1970: 1_760_000_000)
        let open = try #require(ReengagementOpen(url: Self.openURL, openedAt: opened))
        #expect(open == ReengagementOpen(openedAt: opened, conversionTag: "3F2A9C10-7B"))
        // An iOS 18.0 open carries the parameter without a tag; a plain link is no re-engagement.
        let untagged = URL(string: "https://shop.example.com/product/42?AdAttributionKitReengagementOpen")!
        #expect(ReengagementOpen(url: untagged, openedAt: opened)?.conversionTag == nil)
        #expect(ReengagementOpen(url: untagged, openedAt: opened) != nil)
        #expect(
            ReengagementOpen(url: URL(string: "https://shop.example.com/product/42?ref=mail")!, openedAt: opened) == nil
        )
    }

    @Test func aReengagementSixtyDaysAfterInstallGetsWindowsFromItsOpen() async throws {
        let store = InMemoryConversionValueStore()
        let clock = TestClock()
        let client = RecordingPostbackClient()
        let install = ConversionValueUpdater<Shop>(store: store, client: client, clock: clock)
        let firstLaunch = try #require(await install.windowsStart)
        try await install.record { $0.registered = true }

        // Day 60: the install's windows are long over; the app is opened from a re-engagement ad.
        clock.set(hours: 60 * 24, after: firstLaunch)
        #expect(await install.currentWindow == nil)
        let open = try #require(ReengagementOpen(url: Self.openURL, openedAt: clock.now))
        let reengagement = ConversionValueUpdater<Shop>(
            conversion: .reengagement(open), store: InMemoryConversionValueStore(), client: client, clock: clock)
        #expect(await reengagement.windowsStart == open.openedAt)
        // Its first update, in its own window 1, with its own state (not the install's).
        #expect(
            try await reengagement.apply()
                == ConversionValueUpdate(window: .first, fineValue: 0, coarseValue: .low, lockWindow: false))
        clock.set(hours: 60 * 24 + 48, seconds: -1, after: firstLaunch)
        #expect(try await reengagement.record { $0.dayOneAction = .ordered }?.window == .first)
        clock.set(hours: 60 * 24 + 48, after: firstLaunch)
        #expect(try await reengagement.apply()?.window == .second)
        clock.set(hours: 60 * 24 + 168, after: firstLaunch)
        #expect(try await reengagement.apply()?.window == .third)
        clock.set(hours: 60 * 24 + 840, after: firstLaunch)
        #expect(try await reengagement.apply() == nil)

        // Only AdAttributionKit heard of it, tagged; the install sent nothing after its windows.
        let sent = await client.sent
        let reengagementSends = sent.filter { $0.conversion == .reengagement(open) }
        #expect(reengagementSends.map(\.framework) == Array(repeating: .adAttributionKit, count: 4))
        #expect(reengagementSends.map(\.update.window) == [.first, .first, .second, .third])
        #expect(sent.filter { $0.conversion == .install }.count == 2)
        #expect(try await install.record { $0.paymentTier = .high } == nil)
        #expect(await install.state == Shop(registered: true, paymentTier: .high))
    }

    @Test func eachTagHasItsOwnStateAndAnotherOpenStartsAfresh() async throws {
        let clock = TestClock()
        let client = RecordingPostbackClient()
        let store = InMemoryConversionValueStore()
        let first = ReengagementOpen(openedAt: clock.now, conversionTag: "a")
        let one = ConversionValueUpdater<Shop>(
            conversion: .reengagement(first), store: store, client: client, clock: clock)
        try await one.record { $0.registered = true }
        // The same open after a relaunch keeps its state and its windows.
        clock.set(hours: 10, after: first.openedAt)
        let relaunched = ConversionValueUpdater<Shop>(
            conversion: .reengagement(first), store: store, client: client, clock: clock)
        #expect(await relaunched.state.registered)
        #expect(try await relaunched.apply() == nil)
        // A later open handed the same store is a re-engagement of its own.
        let second = ReengagementOpen(openedAt: clock.now, conversionTag: "b")
        let two = ConversionValueUpdater<Shop>(
            conversion: .reengagement(second), store: store, client: client, clock: clock)
        #expect(await two.state == Shop())
        #expect(await two.windowsStart == second.openedAt)
    }

    @Test func aTagRefusedForGoodIsNotSentAgain() async throws {
        let client = RecordingPostbackClient()
        let open = ReengagementOpen(openedAt: Date(), conversionTag: "expired")
        let updater = ConversionValueUpdater<Shop>(
            conversion: .reengagement(open), store: InMemoryConversionValueStore(), client: client, clock: TestClock())
        await client.failNext(1, through: .adAttributionKit, refusal: .conversion)
        let error = await #expect(throws: ConversionValueUpdateError.self) {
            try await updater.record { $0.registered = true }
        }
        #expect(error?.permanent == [.adAttributionKit])
        #expect(try await updater.record { $0.paymentTier = .low } == nil)
        #expect(await client.sent.isEmpty)
    }
}
