import Foundation
import SkanCore
import SkanRuntime
import Testing

/// The runtime's Apple calling code, compiled against the mirrored frameworks. On Linux every
/// `#available` check holds, so the client's `newestAPI` stands in for the OS version: each path an
/// iPhone takes, from iOS 14.0 to 18.4, is run here.
@Suite(.appleMirrorWorld) struct SystemPostbackClientTests {
    let update = ConversionValueUpdate(window: .first, fineValue: 11, coarseValue: .medium, lockWindow: true)

    /// What one update through every framework of `client` calls, in order.
    func calls(_ client: SystemPostbackClient) async throws -> [String] {
        for framework in client.frameworks {
            try await client.send(update, through: framework)
        }
        return AppleMirrorWorld.current.takeAll()
    }

    @Test func iOS18UpdatesInstallConversionsOnlyByDefault() async throws {
        #expect(SystemPostbackClient().frameworks == [.skAdNetwork, .adAttributionKit])
        #expect(
            try await calls(SystemPostbackClient()) == [
                "SKAdNetwork.updatePostbackConversionValue(11, coarseValue: medium, lockWindow: true)",
                "Postback.updateConversionValue(PostbackUpdate(fineConversionValue: 11, lockPostback: true, coarseConversionValue: medium, conversionTypes: [\".install\"]))",
            ])
    }

    @Test func appsCanTargetReengagementOrEveryConversionType() async throws {
        #expect(
            try await calls(SystemPostbackClient(conversions: .all)) == [
                "SKAdNetwork.updatePostbackConversionValue(11, coarseValue: medium, lockWindow: true)",
                "Postback.updateConversionValue(PostbackUpdate(fineConversionValue: 11, lockPostback: true, coarseConversionValue: medium))",
            ])
        // SKAdNetwork measures installs only.
        #expect(SystemPostbackClient(conversions: .reengagements).frameworks == [.adAttributionKit])
        #expect(
            try await calls(SystemPostbackClient(conversions: .reengagements)) == [
                "Postback.updateConversionValue(PostbackUpdate(fineConversionValue: 11, lockPostback: true, coarseConversionValue: medium, conversionTypes: [\".reengagement\"]))"
            ])
        #expect(
            try await calls(SystemPostbackClient(conversions: .tagged("tag-1"))) == [
                "Postback.updateConversionValue(PostbackUpdate(fineConversionValue: 11, lockPostback: true, conversionTag: tag-1))"
            ])
    }

    @Test func eachOlderOSGetsItsOwnAPI() async throws {
        let expected: [(APILevel, [String])] = [
            (
                .iOS18,
                [
                    "SKAdNetwork.updatePostbackConversionValue(11, coarseValue: medium, lockWindow: true)",
                    "Postback.updateConversionValue(PostbackUpdate(fineConversionValue: 11, lockPostback: true, coarseConversionValue: medium, conversionTypes: [\".install\"]))",
                ]
            ),
            (
                .iOS17Point4,
                [
                    "SKAdNetwork.updatePostbackConversionValue(11, coarseValue: medium, lockWindow: true)",
                    "Postback.updateConversionValue(11, coarseConversionValue: medium, lockPostback: true)",
                ]
            ),
            (.iOS16Point1, ["SKAdNetwork.updatePostbackConversionValue(11, coarseValue: medium, lockWindow: true)"]),
            (.iOS15Point4, ["SKAdNetwork.updatePostbackConversionValue(11)"]),
            (.iOS14, ["SKAdNetwork.updateConversionValue(11)"]),
        ]
        for (level, calls) in expected {
            #expect(
                try await self.calls(SystemPostbackClient(conversions: .installs, newestAPI: level)) == calls,
                "\(level)")
        }
    }

    @Test func updatesThatAnOSCannotExpressGoNowhere() {
        // Before 18.0 a re-engagement-only update would touch installs too; before 18.4 there are no tags.
        #expect(SystemPostbackClient(conversions: .reengagements, newestAPI: .iOS17Point4).frameworks == [])
        #expect(SystemPostbackClient(conversions: .tagged("t"), newestAPI: .iOS18).frameworks == [])
        #expect(
            SystemPostbackClient(conversions: .all, newestAPI: .iOS17Point4).frameworks == [
                .skAdNetwork, .adAttributionKit,
            ])
        #expect(SystemPostbackClient(conversions: .installs, newestAPI: .iOS16Point1).frameworks == [.skAdNetwork])
    }

    @Test func eachFrameworksErrorReachesTheCallerOnItsOwn() async throws {
        struct Refused: Error {}
        let client = SystemPostbackClient()
        AppleMirrorWorld.current.failNext(skAdNetwork: Refused())
        await #expect(throws: Refused.self) { try await client.send(update, through: .skAdNetwork) }
        try await client.send(update, through: .adAttributionKit)
        AppleMirrorWorld.current.failNext(adAttributionKit: Refused())
        await #expect(throws: Refused.self) { try await client.send(update, through: .adAttributionKit) }
        try await client.send(update, through: .skAdNetwork)
        #expect(AppleMirrorWorld.current.takeAll().count == 4)
    }

    @Test func theUpdaterKeepsSendingToAdAttributionKitWhenSKAdNetworkRefuses() async throws {
        struct Refused: Error {}
        AppleMirrorWorld.current.failNext(skAdNetwork: Refused())
        let updater = ConversionValueUpdater<Counter>(
            store: InMemoryConversionValueStore(), client: SystemPostbackClient())
        let error = await #expect(throws: ConversionValueUpdateError.self) { try await updater.record { $0.count = 3 } }
        #expect(error?.accepted == [.adAttributionKit])
        #expect(try await updater.apply()?.fineValue == 3)
        #expect(
            AppleMirrorWorld.current.takeAll() == [
                "SKAdNetwork.updatePostbackConversionValue(3, coarseValue: low, lockWindow: false)",
                "Postback.updateConversionValue(PostbackUpdate(fineConversionValue: 3, lockPostback: false, coarseConversionValue: low, conversionTypes: [\".install\"]))",
                "SKAdNetwork.updatePostbackConversionValue(3, coarseValue: low, lockWindow: false)",
            ])
    }
}

/// A minimal schema state: the fine value is a counter, always coarse `low`, never locked.
struct Counter: ConversionValueState {
    enum Coarse: String { case low }
    var count = 0
    init() {}
    init(fineValue: Int) { count = fineValue }
    var fineValue: Int { count }
    enum Window: Int {
        case first = 1
        case second, third
    }
    func coarseValue(in window: Window) -> Coarse { .low }
    func shouldLock(in window: Window) -> Bool { false }
}
