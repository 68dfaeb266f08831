import Foundation
import GeneratedPublic
import SkanRuntime
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
        #expect(await client.updates(through: .skAdNetwork).map(\.window) == [1, 2])
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
