import Foundation
import SkanCore
import SkanRuntime
import Testing

/// Installs and re-engagements together, as iOS routes their updates (`AttributionModel`): each conversion's
/// postbacks end up holding that conversion's own last values and locks, whatever the order of opens and updates,
/// and whether or not an update without a coarse value clears the coarse value a postback holds.
@Suite(.appleMirrorWorld) struct ReengagementRoutingTests {
    static let firstLaunch = Date(timeIntervalSince1970: 1_750_000_000)

    /// An updater of `conversion` through `client`, on `clock`, with a store of its own.
    func updater(_ conversion: Conversion, _ client: any PostbackClient, _ clock: MirrorClock)
        -> ConversionValueUpdater<Tally>
    {
        ConversionValueUpdater<Tally>(
            conversion: conversion, firstLaunch: Self.firstLaunch, store: InMemoryConversionValueStore(),
            client: client, clock: clock)
    }

    /// The journey the runtime got wrong: an install update that locks, after a re-engagement opened, went through
    /// SKAdNetwork into the re-engagement's postback and closed it on the install's values.
    /// Each updater gets `client()`.
    func lockingInstallUpdateAfterAnOpen(_ client: () -> any PostbackClient) async throws
        -> AttributionModel.Values?
    {
        let clock = MirrorClock(Self.firstLaunch)
        let postbacks = AppleMirrorWorld.current.postbacks
        postbacks.start(firstLaunch: Self.firstLaunch, clock: clock)
        let install = updater(.install, client(), clock)
        clock.set(hours: 1)
        try await install.record { $0.count = 3 }
        clock.set(hours: 5)
        let open = ReengagementOpen(openedAt: clock.now, conversionTag: "tag-1")
        postbacks.reengage(tag: open.conversionTag, at: open.openedAt)
        let reengagement = updater(.reengagement(open), client(), clock)
        try await reengagement.apply()
        clock.set(hours: 6)
        try await reengagement.record { $0.count = 9 }
        clock.set(hours: 7)
        try await install.record { $0.count = 58 }
        clock.set(hours: 8)
        try await reengagement.record { $0.count = 12 }
        return postbacks.reengagement(openedAt: open.openedAt)[1]
    }

    @Test func aLockingInstallUpdateLeavesTheReengagementsPostbackItsOwn() async throws {
        let coordinator = PostbackCoordinator(client: SystemPostbackClient())
        let coordinated = try await lockingInstallUpdateAfterAnOpen { coordinator }
        #expect(coordinated == AttributionModel.Values(fine: 12, coarse: "low", locked: false))
    }

    /// A client that is not a coordinator, a new value for each updater, as an app that passes
    /// `SystemPostbackClient()` to each writes it: the updaters still share one coordinator (this test's own type,
    /// so that no other test's updaters share it). Before, the install's lock closed the re-engagement's postback.
    @Test func updatersGivenAClientEachStillShareOneCoordinator() async throws {
        struct SystemClientOfThisTest: PostbackClient {
            let system = SystemPostbackClient()
            func frameworks(for conversion: Conversion) -> [AttributionFramework] {
                system.frameworks(for: conversion)
            }
            func send(
                _ update: ConversionValueUpdate, of conversion: Conversion, through framework: AttributionFramework
            )
                async throws
            { try await system.send(update, of: conversion, through: framework) }
            func reach(of conversion: Conversion, through framework: AttributionFramework) -> PostbackReach {
                system.reach(of: conversion, through: framework)
            }
        }
        let values = try await lockingInstallUpdateAfterAnOpen { SystemClientOfThisTest() }
        #expect(values == AttributionModel.Values(fine: 12, coarse: "low", locked: false))
        // An object is a client by its identity: one object given to both shares one coordinator too.
        _ = AppleMirrorWorld.current.takeAll()
        let shared = SendLog(SystemPostbackClient(), clock: MirrorClock(Self.firstLaunch))
        #expect(PostbackCoordinator.coordinator(for: shared) === PostbackCoordinator.coordinator(for: shared))
        let other = SendLog(SystemPostbackClient(), clock: MirrorClock(Self.firstLaunch))
        #expect(PostbackCoordinator.coordinator(for: shared) !== PostbackCoordinator.coordinator(for: other))
        let coordinator = PostbackCoordinator(client: other)
        #expect(PostbackCoordinator.coordinator(for: coordinator) === coordinator)
    }

    @Test func theInstallsSKAdNetworkPostbackKeepsItsValuesWithoutTheLock() async throws {
        let coordinator = PostbackCoordinator(client: SystemPostbackClient())
        _ = try await lockingInstallUpdateAfterAnOpen { coordinator }
        let postbacks = AppleMirrorWorld.current.postbacks
        #expect(postbacks.skAdNetworkPostbacks[1] == AttributionModel.Values(fine: 58, coarse: "high", locked: false))
        // The open locked the install's AdAttributionKit postback on the values it had then.
        #expect(postbacks.install[1] == AttributionModel.Values(fine: 3, coarse: "low", locked: true))
    }

    @Test(arguments: [AttributionModel.CoarseWithoutValue.kept, .cleared])
    func anInstallWithoutReengagementsKeepsItsCoarseValue(_ coarse: AttributionModel.CoarseWithoutValue)
        async throws
    {
        let clock = MirrorClock(Self.firstLaunch)
        let postbacks = AppleMirrorWorld.current.postbacks
        postbacks.start(firstLaunch: Self.firstLaunch, clock: clock, coarseWithoutValue: coarse)
        let install = updater(.install, PostbackCoordinator(client: SystemPostbackClient()), clock)
        try await install.record { $0.count = 30 }
        #expect(postbacks.install[1] == AttributionModel.Values(fine: 30, coarse: "medium", locked: false))
        try await install.record { $0.count = 59 }
        #expect(postbacks.install[1] == AttributionModel.Values(fine: 59, coarse: "high", locked: true))
        // Sent in the old order, the SKAdNetwork copy came last and, if it clears, left no coarse value.
        #expect(AttributionFramework.sendingOrder(locking: false) == [.skAdNetwork, .adAttributionKit])
        #expect(AttributionFramework.sendingOrder(locking: true) == [.adAttributionKit, .skAdNetwork])
    }

    @Test(arguments: [APILevel.iOS18Point4, .iOS18, .iOS17Point5])
    func randomJourneysLeaveEveryConversionItsOwnValues(_ level: APILevel) async throws {
        for seed in UInt64(1)...40 {
            for coarse in [AttributionModel.CoarseWithoutValue.kept, .cleared] {
                var random = SplitMix64(seed: seed &* 7_919 &+ UInt64(level.rawValue))
                let mismatches = try await journey(level: level, coarse: coarse, random: &random)
                #expect(mismatches.isEmpty, "seed \(seed), \(coarse): \(mismatches.joined(separator: "; "))")
                _ = AppleMirrorWorld.current.takeAll()
            }
        }
    }

    /// One journey of opens and updates at random hours; returns where a postback differs from what its own
    /// conversion's updater last sent it.
    func journey(level: APILevel, coarse: AttributionModel.CoarseWithoutValue, random: inout SplitMix64)
        async throws -> [String]
    {
        let clock = MirrorClock(Self.firstLaunch)
        let postbacks = AppleMirrorWorld.current.postbacks
        postbacks.start(firstLaunch: Self.firstLaunch, clock: clock, coarseWithoutValue: coarse)
        let log = SendLog(SystemPostbackClient(newestAPI: level), clock: clock)
        let coordinator = PostbackCoordinator(client: log)
        let tagged = level >= .iOS18Point4
        var updaters = [updater(.install, coordinator, clock)]
        var starts = [Self.firstLaunch]
        var hours = 0.0
        func record(_ index: Int, _ count: Int?) async {
            if let count {
                _ = try? await updaters[index].record { $0.count = count }
            } else {
                _ = try? await updaters[index].apply()
            }
        }
        for _ in 0..<30 {
            hours += 0.5 + Double(random.next() % 80)
            clock.set(hours: hours)
            if random.next() % 6 == 0, updaters.count < 4 {
                let open = ReengagementOpen(openedAt: clock.now, conversionTag: tagged ? "tag-\(hours)" : nil)
                // A tagged open may make no conversion (rate limits, cooldowns): the tag is then unknown.
                if !tagged || random.next() % 5 != 0 {
                    postbacks.reengage(tag: open.conversionTag, at: open.openedAt)
                    starts.append(open.openedAt)
                }
                updaters.append(updater(.reengagement(open), coordinator, clock))
                await record(updaters.count - 1, nil)
            } else {
                await record(Int(random.next() % UInt64(updaters.count)), Int(random.next() % 64))
            }
        }
        return mismatches(postbacks, starts: starts, sent: log.sent)
    }

    /// Where a postback differs from the last update the runtime sent for its conversion through AdAttributionKit
    /// (SKAdNetwork for its own postbacks) before a later conversion locked it.
    func mismatches(_ postbacks: AttributionModel, starts: [Date], sent: [SendLog.Entry]) -> [String] {
        var found: [String] = []
        for (number, start) in starts.enumerated() {
            // A later conversion locks this one's active postbacks on the values they hold then.
            let frozen = number + 1 < starts.count ? starts[number + 1] : nil
            let frozenFrom = frozen.flatMap { ConversionWindow.Schedule.production.window(at: $0, since: start) }
            let actual = number == 0 ? postbacks.install : postbacks.reengagement(openedAt: start)
            for window in ConversionWindow.allCases {
                let last = sent.last { entry in
                    entry.framework == .adAttributionKit && entry.conversionStart == start
                        && entry.update.window == window && (frozen.map { entry.at < $0 } ?? true)
                }?.update
                var expected = last.map {
                    AttributionModel.Values(fine: $0.fineValue, coarse: $0.coarseValue.rawValue, locked: $0.lockWindow)
                }
                if let frozenFrom, frozenFrom <= window {
                    expected = expected ?? AttributionModel.Values()
                    expected?.locked = true
                }
                if actual[window.number] != expected {
                    found.append(
                        "conversion \(number) window \(window.number): \(actual[window.number].map(\.description) ?? "none"), expected \(expected.map(\.description) ?? "none")"
                    )
                }
            }
        }
        // SKAdNetwork's postbacks hold the install's values (a lock may be left out while a re-engagement is open).
        for window in ConversionWindow.allCases {
            let last = sent.last { $0.framework == .skAdNetwork && $0.update.window == window }?.update
            let actual = postbacks.skAdNetworkPostbacks[window.number]
            if actual?.fine != last?.fineValue || actual?.coarse != last?.coarseValue.rawValue {
                found.append("SKAdNetwork window \(window.number): \(actual.map(\.description) ?? "none")")
            }
        }
        return found
    }
}

/// Every update a client took, with the conversion it was for and when: below the coordinator, so what it leaves
/// out or changes is not counted as sent.
final class SendLog: PostbackClient, @unchecked Sendable {
    struct Entry {
        /// The install's first launch, or the re-engagement's open.
        var conversionStart: Date
        var framework: AttributionFramework
        var at: Date
        var update: ConversionValueUpdate
    }

    private let client: any PostbackClient
    private let clock: any ConversionClock
    private let lock = NSLock()
    private var entries: [Entry] = []

    init(_ client: any PostbackClient, clock: any ConversionClock) {
        self.client = client
        self.clock = clock
    }

    var sent: [Entry] { lock.withLock { entries } }

    func frameworks(for conversion: Conversion) -> [AttributionFramework] { client.frameworks(for: conversion) }
    func refusal(_ error: any Error, from framework: AttributionFramework) -> PostbackRefusal {
        client.refusal(error, from: framework)
    }
    func reach(of conversion: Conversion, through framework: AttributionFramework) -> PostbackReach {
        client.reach(of: conversion, through: framework)
    }

    func send(_ update: ConversionValueUpdate, of conversion: Conversion, through framework: AttributionFramework)
        async throws
    {
        try await client.send(update, of: conversion, through: framework)
        let start: Date
        switch conversion {
        case .install: start = ReengagementRoutingTests.firstLaunch
        case .reengagement(let open): start = open.openedAt
        }
        let entry = Entry(conversionStart: start, framework: framework, at: clock.now, update: update)
        lock.withLock { entries.append(entry) }
    }
}

/// A clock the test moves by hand, in hours after the first launch.
final class MirrorClock: ConversionClock, @unchecked Sendable {
    private let lock = NSLock()
    private let origin: Date
    private var current: Date

    init(_ origin: Date) {
        self.origin = origin
        current = origin
    }

    var now: Date { lock.withLock { current } }

    func set(hours: Double) {
        lock.withLock { current = origin.addingTimeInterval(hours * 3_600) }
    }
}

/// A schema state whose fine value is a count: coarse `medium` from 20, `high` from 40, and locked from 56.
struct Tally: ConversionValueState {
    enum Coarse: String { case low, medium, high }
    enum Window: Int {
        case first = 1
        case second, third
    }
    var count = 0
    init() {}
    init(fineValue: Int) { count = fineValue }
    var fineValue: Int { count }
    func coarseValue(in window: Window) -> Coarse { count >= 40 ? .high : count >= 20 ? .medium : .low }
    func shouldLock(in window: Window) -> Bool { count >= 56 }
}
