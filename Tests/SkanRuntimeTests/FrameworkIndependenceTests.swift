import Foundation
import GeneratedPublic
import SkanCore
import SkanRuntime
import Testing

/// SKAdNetwork and AdAttributionKit are updated independently (AdAttributionKit, "AdAttributionKit and
/// SKAdNetwork interoperability"): one framework's failure neither blocks nor undoes the other, only the
/// refusing framework is sent the update again, and the error still reaches the app.
@Suite struct FrameworkIndependenceTests {
    @Test func anSKAdNetworkFailureDoesNotStopAdAttributionKit() async throws {
        let (updater, client, _, _) = makeUpdater(Shop.self)
        await client.failNext(1, through: .skAdNetwork)
        let error = await #expect(throws: ConversionValueUpdateError.self) {
            try await updater.record { $0.registered = true }
        }
        #expect(error?.failures.keys.sorted(by: { $0.rawValue < $1.rawValue }) == [.skAdNetwork])
        #expect(error?.failures[.skAdNetwork] is RecordingPostbackClient.Failure)
        #expect(error?.accepted == [.adAttributionKit])
        #expect(await client.updates(through: .adAttributionKit).map(\.fineValue) == [1])
        #expect(await client.updates(through: .skAdNetwork).isEmpty)
        #expect(await updater.state.registered)

        // The next call retries SKAdNetwork only.
        #expect(try await updater.apply()?.fineValue == 1)
        #expect(await client.sent.map(\.framework) == [.adAttributionKit, .skAdNetwork])
        #expect(try await updater.apply() == nil)
    }

    @Test func anAdAttributionKitFailureKeepsWhatSKAdNetworkAccepted() async throws {
        let (updater, client, _, _) = makeUpdater(Shop.self)
        await client.failNext(1, through: .adAttributionKit)
        let error = await #expect(throws: ConversionValueUpdateError.self) {
            try await updater.record { $0.registered = true }
        }
        #expect(error?.accepted == [.skAdNetwork])
        #expect(
            error?.update
                == ConversionValueUpdate(window: .first, fineValue: 1, coarseValue: .medium, lockWindow: false))

        #expect(try await updater.apply()?.fineValue == 1)
        // SKAdNetwork was not sent the same values twice.
        #expect(await client.updates(through: .skAdNetwork).count == 1)
        #expect(await client.updates(through: .adAttributionKit).count == 1)
    }

    @Test func bothFailingLeavesBothToRetry() async throws {
        let (updater, client, _, _) = makeUpdater(Shop.self)
        await client.failNext(1)
        let error = await #expect(throws: ConversionValueUpdateError.self) {
            try await updater.record { $0.registered = true }
        }
        #expect(error?.failures.count == 2)
        #expect(error?.accepted == [])
        #expect(try await updater.apply()?.fineValue == 1)
        #expect(await client.sent.map(\.framework) == [.skAdNetwork, .adAttributionKit])
    }

    @Test func aLockOnlyOneFrameworkTookStillReachesTheOther() async throws {
        let (updater, client, _, _) = makeUpdater(Shop.self)
        await client.failNext(1, through: .adAttributionKit)
        _ = try? await updater.record { $0.paymentTier = .high }  // locks window 1
        #expect(await client.updates(through: .skAdNetwork).last?.lockWindow == true)
        // SKAdNetwork's window is locked; AdAttributionKit still needs the lock.
        let retried = try await updater.record { $0.registered = true }
        #expect(retried == ConversionValueUpdate(window: .first, fineValue: 7, coarseValue: .high, lockWindow: true))
        #expect(await client.updates(through: .skAdNetwork).count == 1)
        #expect(await client.updates(through: .adAttributionKit).map(\.fineValue) == [7])
        #expect(try await updater.record { $0.dayOneAction = .ordered } == nil)
    }
}
