import Foundation
import GeneratedPublic
import SkanRuntime
import Testing

@Suite struct ConversionWindowTests {
    @Test func windowBoundaries() {
        let start = Date(timeIntervalSince1970: 0)
        let window = { (days: Double) in ConversionWindow.window(at: start.addingTimeInterval(days * 86_400), firstLaunch: start) }
        #expect(window(0) == 1)
        #expect(window(2.999) == 1)
        #expect(window(3) == 2)
        #expect(window(7.999) == 2)
        #expect(window(8) == 3)
        #expect(window(35.999) == 3)
        #expect(window(36) == nil)
        #expect(window(-1) == 1)
    }
}

@Suite struct ConversionValueUpdaterTests {
    @Test func sendsOnceAndOnlyWhenTheValuesChange() async throws {
        let (updater, client, _, _) = makeUpdater(Shop.self)
        let first = try await updater.record { $0.registered = true }
        #expect(first == PostbackUpdate(window: 1, fineValue: 1, coarseValue: .medium, lockWindow: false))
        #expect(try await updater.record { $0.registered = true } == nil)
        // browsed changes the fine value but not the coarse one: still an update.
        #expect(try await updater.record { $0.dayOneAction = .browsed }?.fineValue == 9)
        #expect(try await updater.apply() == nil)
        #expect(await client.updates.count == 2)
    }

    @Test func windowBoundariesStartNewUpdates() async throws {
        let (updater, client, clock, _) = makeUpdater(Shop.self)
        let origin = await updater.firstLaunch
        try await updater.record { $0.registered = true }
        clock.set(day: 2.99, after: origin)
        #expect(try await updater.apply() == nil)
        clock.set(day: 3, after: origin)
        #expect(try await updater.apply()?.window == 2)
        clock.set(day: 7.99, after: origin)
        #expect(try await updater.apply() == nil)
        clock.set(day: 8, after: origin)
        #expect(try await updater.apply()?.window == 3)
        clock.set(day: 35.99, after: origin)
        #expect(try await updater.record { $0.paymentTier = .low }?.window == 3)
        clock.set(day: 36, after: origin)
        #expect(try await updater.record { $0.paymentTier = .high } == nil)
        #expect(await client.updates.map(\.window) == [1, 2, 3, 3])
    }

    @Test func aLockedWindowTakesNoMoreUpdatesUntilTheNext() async throws {
        let (updater, client, clock, _) = makeUpdater(Shop.self)
        let origin = await updater.firstLaunch
        // Shop locks window 1 when paymentTier == high.
        let locked = try await updater.record { $0.paymentTier = .high }
        #expect(locked == PostbackUpdate(window: 1, fineValue: 6, coarseValue: .high, lockWindow: true))
        #expect(try await updater.record { $0.registered = true } == nil)
        #expect(try await updater.record { $0.dayOneAction = .ordered } == nil)
        clock.set(day: 4, after: origin)
        #expect(try await updater.apply() == PostbackUpdate(window: 2, fineValue: 31, coarseValue: .high, lockWindow: false))
        #expect(await client.updates.count == 2)
    }

    @Test func increaseOnlyNeverSendsALowerFineValue() async throws {
        let (updater, client, _, _) = makeUpdater(Shop.self, options: .init(increaseOnly: true))
        try await updater.record { $0.registered = true; $0.dayOneAction = .browsed }  // 9
        let lower = try await updater.record { $0.dayOneAction = .none }  // state 1, coarse medium
        #expect(lower == nil)  // 9 again with the same coarse value: nothing new to send
        try await updater.record { $0.paymentTier = .low }  // 3 < 9: sends 9 with the new coarse value
        #expect(await client.updates.map(\.fineValue) == [9])
        try await updater.record { $0.paymentTier = .medium }  // 5, coarse high
        #expect(await client.updates.map(\.fineValue) == [9, 9])
        #expect(await client.updates.last?.coarseValue == .high)
        try await updater.record { $0.dayOneAction = .ordered }  // 29 > 9
        #expect(await client.updates.map(\.fineValue) == [9, 9, 29])

        let (plain, plainClient, _, _) = makeUpdater(Shop.self)
        try await plain.record { $0.registered = true; $0.dayOneAction = .browsed }
        try await plain.record { $0.dayOneAction = .none }
        #expect(await plainClient.updates.map(\.fineValue) == [9, 1])
    }

    @Test func stateAndWindowsSurviveARelaunch() async throws {
        let store = InMemoryConversionValueStore()
        let clock = TestClock()
        let (first, firstClient, _, _) = makeUpdater(Subscription.self, store: store, clock: clock)
        let origin = await first.firstLaunch
        try await first.record { $0.revenue = .mid; $0.startedTrial = true }
        #expect(await firstClient.updates.count == 1)

        clock.set(day: 1, after: origin)
        let (second, secondClient, _, _) = makeUpdater(Subscription.self, store: store, clock: clock)
        #expect(await second.state == Subscription(revenue: .mid, startedTrial: true))
        #expect(await second.firstLaunch == origin)
        #expect(try await second.apply() == nil)  // window 1 already has these values
        #expect(await secondClient.updates.isEmpty)
        clock.set(day: 10, after: origin)
        #expect(try await second.apply()?.window == 3)
    }

    @Test func aFailedSendIsRetriedAndTheErrorReachesTheApp() async throws {
        let (updater, client, _, _) = makeUpdater(Shop.self)
        await client.failNext(1)
        await #expect(throws: RecordingPostbackClient.Failure.self) { try await updater.record { $0.registered = true } }
        #expect(await updater.state.registered)
        #expect(try await updater.apply()?.fineValue == 1)
        #expect(await client.updates.count == 1)
    }

    @Test func thousandConcurrentRecordsEndInTheSequentialState() async throws {
        let (updater, client, _, _) = makeUpdater(Shop.self)
        let changes: [@Sendable (inout Shop) -> Void] = (0..<1000).map { index in
            switch index % 4 {
            case 0: { $0.registered = true }
            case 1: { state in state.dayOneAction = max(state.dayOneAction, Shop.DayOneAction.allCases[index % 3]) }
            case 2: { state in state.paymentTier = max(state.paymentTier, index < 500 ? .low : .medium) }
            default: { _ in }
            }
        }
        await withThrowingTaskGroup(of: Void.self) { group in
            for change in changes {
                group.addTask { try await updater.record(change) }
            }
        }
        var sequential = Shop()
        for change in changes { change(&sequential) }
        #expect(await updater.state == sequential)
        let updates = await client.updates
        // Every update differs from the one before it, and the last one is the final state's.
        #expect(zip(updates, updates.dropFirst()).allSatisfy { $0 != $1 })
        #expect(updates.last?.fineValue == sequential.fineValue)
        #expect(try await updater.apply() == nil)
    }

    @Test func userDefaultsStoreRoundTrips() throws {
        let suite = "skanc-tests-\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        let store = UserDefaultsConversionValueStore(key: "skanc.Shop.v3", defaults: defaults)
        #expect(store.load() == nil)
        let state = StoredConversionState(firstLaunch: Date(timeIntervalSince1970: 5), fineValue: 11,
                                          applied: [1: PostbackUpdate(window: 1, fineValue: 11, coarseValue: .medium, lockWindow: false)],
                                          highestFineValueSent: 11)
        store.save(state)
        #expect(UserDefaultsConversionValueStore(key: "skanc.Shop.v3", defaults: defaults).load() == state)
    }
}
