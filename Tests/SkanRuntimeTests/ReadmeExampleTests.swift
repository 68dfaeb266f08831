import Foundation
import GeneratedPublic
import SkanAppleAdsClient
import SkanCore
import SkanRuntime
import SkanTracking
import Testing

/// The README's examples of the runtime, as written there, so they keep compiling and meaning what they say.
@Suite struct ReadmeExampleTests {
    final class TestClock: ConversionClock, @unchecked Sendable {  // ConversionClock: `var now: Date { get }`
        var now = Date(timeIntervalSince1970: 0)
    }

    @Test func theSeamsExample() async throws {
        let clock = TestClock()
        let client = RecordingPostbackClient()  // records instead of calling iOS
        let updater = ConversionValueUpdater<Shop>(store: InMemoryConversionValueStore(), client: client, clock: clock)
        try await updater.record { $0.registered = true }
        clock.now = clock.now.addingTimeInterval(48 * 3_600)  // hour 48: the second window
        try await updater.apply()
        #expect(await client.updates(through: .skAdNetwork).map(\.window) == [.first, .second])
    }

    @MainActor final class Checkout {
        var tier: Shop.PaymentTier = .none
        let updater: ConversionValueUpdater<Shop>

        init(updater: ConversionValueUpdater<Shop>) { self.updater = updater }

        func purchased(tier newTier: Shop.PaymentTier) async throws {
            tier = newTier
            let tier = self.tier  // a Sendable copy, read on the main actor
            try await updater.record { $0.paymentTier = max($0.paymentTier, tier) }
        }
    }

    @Test @MainActor func theIsolationExample() async throws {
        let updater = ConversionValueUpdater<Shop>(
            store: InMemoryConversionValueStore(), client: RecordingPostbackClient())
        let checkout = Checkout(updater: updater)
        try await checkout.purchased(tier: .medium)
        #expect(await updater.state.paymentTier == .medium)
    }
}

/// The README's tracking and Apple Ads examples, as written there, with the defaults of a platform without
/// App Tracking Transparency or AdServices (this one).
@Suite struct ReadmeAttributionExampleTests {
    @Test func theTrackingExample() async {
        let tracking = TrackingAuthorizer()  // App Tracking Transparency on iOS
        let status = await tracking.requestIfNeeded(timeout: 10)  // waits until the app is active, asks once
        let advertisingID = await tracking.identifiers().advertising  // nil unless authorized and not all zeros
        #expect(status == .restricted)
        #expect(advertisingID == nil)
    }

    @Test func theAppleAdsExample() async {
        let error = await #expect(throws: AppleAdsAttributionClient.Failure.self) {
            let tracking = TrackingAuthorizer()
            let record = try await AppleAdsAttributionClient().attribution(trackingStatus: await tracking.status())
            if record.attributed { print(record.campaign ?? 0, record.adGroup ?? 0, record.keyword ?? 0) }
        }
        guard case .token = error else {
            Issue.record("without AdServices there is no token: \(String(describing: error))")
            return
        }
    }
}

/// The README's re-engagement and first-launch examples.
@Suite struct ReadmeReengagementExampleTests {
    @Test func theReengagementExample() async throws {
        let url = URL(string: "https://shop.example.com/deals?AdAttributionKitReengagementOpen=tag-7")!
        var sent: ConversionValueUpdate?
        if let open = ReengagementOpen(url: url, openedAt: Date()) {  // the AdAttributionKitReengagementOpen item
            let reengagement = ConversionValueUpdater<Shop>(
                conversion: .reengagement(open), store: InMemoryConversionValueStore())
            sent = try await reengagement.record { $0.dayOneAction = .ordered }
        }
        #expect(sent?.window == .first)
    }

    @Test func theFirstLaunchExample() async {
        let date = Date(timeIntervalSinceNow: -3 * 86_400)
        let updater = ConversionValueUpdater<Shop>(firstLaunch: date, store: InMemoryConversionValueStore())
        #expect(await updater.currentWindow == .second)
    }
}
