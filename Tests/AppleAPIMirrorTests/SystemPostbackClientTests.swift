import Foundation
import SkanRuntime
import Testing

/// The runtime's Apple calling code, compiled against the mirrored frameworks: on Linux every
/// `#available` check holds, so the newest APIs are the ones called.
@Suite(.serialized) struct SystemPostbackClientTests {
    @Test func callsSKAdNetworkAndAdAttributionKitWithTheSameValues() async throws {
        _ = AppleCallLog.shared.takeAll()
        try await SystemPostbackClient().send(PostbackUpdate(window: 1, fineValue: 11, coarseValue: .medium, lockWindow: true))
        #expect(AppleCallLog.shared.takeAll() == [
            "SKAdNetwork.updatePostbackConversionValue(11, coarseValue: medium, lockWindow: true)",
            "Postback.updateConversionValue(11, coarseConversionValue: medium, lockPostback: true)",
        ])
    }

    @Test func aSystemErrorReachesTheCaller() async throws {
        struct Refused: Error {}
        _ = AppleCallLog.shared.takeAll()
        AppleCallLog.shared.nextSKAdNetworkError = Refused()
        await #expect(throws: Refused.self) {
            try await SystemPostbackClient().send(PostbackUpdate(window: 2, fineValue: 0, coarseValue: .low, lockWindow: false))
        }
        // AdAttributionKit is not called after SKAdNetwork failed.
        #expect(AppleCallLog.shared.takeAll() == ["SKAdNetwork.updatePostbackConversionValue(0, coarseValue: low, lockWindow: false)"])
    }
}
