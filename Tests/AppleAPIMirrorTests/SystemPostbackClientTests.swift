import Foundation
import SkanCore
import SkanRuntime
import Testing

/// The runtime's Apple calling code, compiled against the mirrored frameworks. On Linux every
/// `#available` check holds, so the client's `newestAPI` stands in for the OS version: each path an
/// iPhone takes, from iOS 14.0 to 18.4, is run here.
@Suite(.appleMirrorWorld) struct SystemPostbackClientTests {
    let update = ConversionValueUpdate(window: .first, fineValue: 11, coarseValue: .medium, lockWindow: true)
    static let tagged = Conversion.reengagement(ReengagementOpen(openedAt: Date(), conversionTag: "tag-1"))
    static let untagged = Conversion.reengagement(ReengagementOpen(openedAt: Date()))

    /// What one update of `conversion` through every framework of `client` calls, in order.
    func calls(_ client: SystemPostbackClient, _ conversion: Conversion = .install) async throws -> [String] {
        for framework in client.frameworks(for: conversion) {
            try await client.send(update, of: conversion, through: framework)
        }
        return AppleMirrorWorld.current.takeAll()
    }

    static let iOS18Install =
        "Postback.updateConversionValue(PostbackUpdate(fineConversionValue: 11, lockPostback: true, coarseConversionValue: medium, conversionTypes: [\".install\"]))"
    static let skAdNetwork4 = "SKAdNetwork.updatePostbackConversionValue(11, coarseValue: medium, lockWindow: true)"

    @Test func installsGoToAdAttributionKitFirstThenSKAdNetwork() async throws {
        #expect(SystemPostbackClient().frameworks(for: .install) == [.adAttributionKit, .skAdNetwork])
        #expect(try await calls(SystemPostbackClient()) == [Self.iOS18Install, Self.skAdNetwork4])
    }

    @Test func aTaggedReengagementUpdateCarriesItsCoarseValueAndConversionType() async throws {
        AppleMirrorWorld.current.postbacks.reengage(tag: "tag-1", at: Date())
        // SKAdNetwork measures installs only.
        #expect(SystemPostbackClient().frameworks(for: Self.tagged) == [.adAttributionKit])
        #expect(
            try await calls(SystemPostbackClient(), Self.tagged) == [
                "Postback.updateConversionValue(PostbackUpdate(fineConversionValue: 11, lockPostback: true, conversionTag: tag-1, coarseConversionValue: medium, conversionTypes: [\".reengagement\"]))"
            ])
        // Without a tag (an open before iOS 18.4), every re-engagement conversion.
        #expect(
            try await calls(SystemPostbackClient(), Self.untagged) == [
                "Postback.updateConversionValue(PostbackUpdate(fineConversionValue: 11, lockPostback: true, coarseConversionValue: medium, conversionTypes: [\".reengagement\"]))"
            ])
    }

    @Test func eachOlderOSGetsItsOwnAPI() async throws {
        let expected: [(APILevel, [String])] = [
            (.iOS18, [Self.iOS18Install, Self.skAdNetwork4]),
            (
                .iOS17Point4,
                [
                    "Postback.updateConversionValue(11, coarseConversionValue: medium, lockPostback: true)",
                    Self.skAdNetwork4,
                ]
            ),
            (.iOS16Point1, [Self.skAdNetwork4]),
            (.iOS15Point4, ["SKAdNetwork.updatePostbackConversionValue(11)"]),
            (.iOS14, ["SKAdNetwork.updateConversionValue(11)"]),
            // iOS 13: no conversion values, but the install registers, so its postback exists.
            (.iOS11Point3, ["SKAdNetwork.registerAppForAdNetworkAttribution()"]),
        ]
        for (level, calls) in expected {
            #expect(try await self.calls(SystemPostbackClient(newestAPI: level)) == calls, "\(level)")
        }
        // An iOS 18.0 device has no tags: a tagged open's update names the conversion type alone.
        #expect(
            try await calls(SystemPostbackClient(newestAPI: .iOS18), Self.tagged) == [
                "Postback.updateConversionValue(PostbackUpdate(fineConversionValue: 11, lockPostback: true, coarseConversionValue: medium, conversionTypes: [\".reengagement\"]))"
            ])
    }

    @Test func reengagementsExistFromIOS17Point5() {
        #expect(SystemPostbackClient(newestAPI: .iOS17Point4).frameworks(for: Self.untagged) == [])
        #expect(SystemPostbackClient(newestAPI: .iOS17Point5).frameworks(for: Self.untagged) == [.adAttributionKit])
        #expect(SystemPostbackClient(newestAPI: .iOS16Point1).frameworks(for: .install) == [.skAdNetwork])
    }

    @Test(arguments: [APILevel.iOS18, .iOS18Point4])
    func nothingReachesAdAttributionKitWherePostbacksAreNotSupported(_ level: APILevel) async throws {
        AppleMirrorWorld.current.postbacksSupported = false
        let client = SystemPostbackClient(newestAPI: level)
        #expect(client.frameworks(for: .install) == [.skAdNetwork])
        #expect(client.frameworks(for: Self.tagged) == [])
        #expect(try await calls(client) == [Self.skAdNetwork4])
        #expect(try await calls(client, Self.tagged) == [])
        // iOS 17.x has no `isSupported` and supports postbacks.
        #expect(
            SystemPostbackClient(newestAPI: .iOS17Point4).frameworks(for: .install) == [
                .adAttributionKit, .skAdNetwork,
            ])
    }

    @Test func eachSendSaysWhichConversionItReaches() {
        let expected: [(APILevel, Conversion, AttributionFramework, PostbackReach)] = [
            (.iOS18Point4, Self.tagged, .adAttributionKit, .itsConversion),
            (.iOS18Point4, Self.untagged, .adAttributionKit, .latestReengagement),
            (.iOS18Point4, .install, .adAttributionKit, .itsConversion),
            (.iOS18Point4, .install, .skAdNetwork, .latestConversion),
            (.iOS18, Self.tagged, .adAttributionKit, .latestReengagement),
            (.iOS18, .install, .adAttributionKit, .itsConversion),
            (.iOS17Point5, Self.untagged, .adAttributionKit, .latestConversion),
            (.iOS17Point4, .install, .adAttributionKit, .latestConversion),
            (.iOS16Point1, .install, .skAdNetwork, .latestConversion),
        ]
        for (level, conversion, framework, reach) in expected {
            #expect(
                SystemPostbackClient(newestAPI: level).reach(of: conversion, through: framework) == reach,
                "\(level) \(conversion) \(framework)")
        }
    }

    @Test func eachFrameworksErrorReachesTheCallerOnItsOwn() async throws {
        struct Refused: Error {}
        let client = SystemPostbackClient()
        AppleMirrorWorld.current.failNext(skAdNetwork: Refused())
        await #expect(throws: Refused.self) { try await client.send(update, of: .install, through: .skAdNetwork) }
        try await client.send(update, of: .install, through: .adAttributionKit)
        AppleMirrorWorld.current.failNext(adAttributionKit: Refused())
        await #expect(throws: Refused.self) { try await client.send(update, of: .install, through: .adAttributionKit) }
        try await client.send(update, of: .install, through: .skAdNetwork)
        #expect(AppleMirrorWorld.current.takeAll().count == 4)
    }

    @Test func refusalsThatWillNotGoAwayAreToldApart() {
        struct Other: Error {}
        let client = SystemPostbackClient()
        #expect(client.refusal(SKANError(.invalidConversionValue), from: .skAdNetwork) == .update)
        #expect(client.refusal(SKANError(.unknown), from: .skAdNetwork) == .transient)
        #expect(client.refusal(AdAttributionKitError.invalidConversionTag, from: .adAttributionKit) == .conversion)
        #expect(client.refusal(AdAttributionKitError.conversionTagNotSupported, from: .adAttributionKit) == .conversion)
        #expect(client.refusal(AdAttributionKitError.unknown, from: .adAttributionKit) == .transient)
        #expect(client.refusal(Other(), from: .adAttributionKit) == .transient)
    }

    @Test func theUpdaterKeepsSendingToAdAttributionKitWhenSKAdNetworkRefuses() async throws {
        struct Refused: Error {}
        AppleMirrorWorld.current.failNext(skAdNetwork: Refused())
        let updater = ConversionValueUpdater<Counter>(
            store: InMemoryConversionValueStore(), client: SystemPostbackClient())
        let error = await #expect(throws: ConversionValueUpdateError.self) { try await updater.record { $0.count = 3 } }
        #expect(error?.accepted == [.adAttributionKit])
        #expect(try await updater.apply()?.fineValue == 3)
        let aak =
            "Postback.updateConversionValue(PostbackUpdate(fineConversionValue: 3, lockPostback: false, coarseConversionValue: low, conversionTypes: [\".install\"]))"
        let skan = "SKAdNetwork.updatePostbackConversionValue(3, coarseValue: low, lockWindow: false)"
        // SKAdNetwork first: the update does not lock (`AttributionFramework.sendingOrder(locking:)`).
        #expect(AppleMirrorWorld.current.takeAll() == [skan, aak, skan])
    }

    @Test func anInvalidConversionValueIsReportedOnceAndNotResent() async throws {
        AppleMirrorWorld.current.failNext(skAdNetwork: SKANError(.invalidConversionValue))
        let updater = ConversionValueUpdater<Counter>(
            store: InMemoryConversionValueStore(), client: SystemPostbackClient())
        let error = await #expect(throws: ConversionValueUpdateError.self) { try await updater.record { $0.count = 3 } }
        #expect(error?.permanent == [.skAdNetwork])
        #expect(try await updater.apply() == nil)
        #expect(try await updater.apply() == nil)
        #expect(AppleMirrorWorld.current.takeAll().count == 2)
        // A different value is sent.
        #expect(try await updater.record { $0.count = 4 }?.fineValue == 4)
        #expect(AppleMirrorWorld.current.takeAll().count == 2)
    }

    @Test func anInvalidConversionTagStopsThatReengagementsUpdates() async throws {
        AppleMirrorWorld.current.failNext(adAttributionKit: AdAttributionKitError.invalidConversionTag)
        let updater = ConversionValueUpdater<Counter>(
            conversion: Self.tagged, store: InMemoryConversionValueStore(),
            client: PostbackCoordinator(client: SystemPostbackClient()))
        let error = await #expect(throws: ConversionValueUpdateError.self) { try await updater.record { $0.count = 3 } }
        #expect(error?.permanent == [.adAttributionKit])
        #expect(try await updater.record { $0.count = 5 } == nil)
        #expect(try await updater.apply() == nil)
        #expect(AppleMirrorWorld.current.takeAll().count == 1)
    }

    @Test func theURLParameterIsAdAttributionKits() {
        #expect(ReengagementOpen.urlParameter == Postback.reengagementOpenURLParameter)
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
