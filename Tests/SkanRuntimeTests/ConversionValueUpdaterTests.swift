import Foundation
import GeneratedPublic
import SkanCore
import SkanRuntime
import Testing

@Suite struct ConversionValueUpdaterTests {
    @Test func sendsOnceToEachFrameworkAndOnlyWhenTheValuesChange() async throws {
        let (updater, client, _, _) = makeUpdater(Shop.self)
        let first = try await updater.record { $0.registered = true }
        #expect(first == ConversionValueUpdate(window: .first, fineValue: 1, coarseValue: .medium, lockWindow: false))
        #expect(try await updater.record { $0.registered = true } == nil)
        // browsed changes the fine value but not the coarse one: still an update.
        #expect(try await updater.record { $0.dayOneAction = .browsed }?.fineValue == 9)
        #expect(try await updater.apply() == nil)
        for framework in AttributionFramework.allCases {
            #expect(await client.updates(through: framework).map(\.fineValue) == [1, 9])
        }
        // Neither update locks: SKAdNetwork first, so AdAttributionKit's full update comes after iOS's copy.
        #expect(
            await client.sent.map(\.framework) == [.skAdNetwork, .adAttributionKit, .skAdNetwork, .adAttributionKit])
    }

    @Test func windowsChangeOnTheirHourToTheSecond() async throws {
        let (updater, client, clock, _) = makeUpdater(Shop.self, frameworks: [.skAdNetwork])
        let origin = try #require(await updater.windowsStart)
        try await updater.record { $0.registered = true }
        clock.set(hours: 48, seconds: -1, after: origin)
        #expect(await updater.currentWindow == .first)
        #expect(try await updater.apply() == nil)
        clock.set(hours: 48, after: origin)
        #expect(try await updater.apply()?.window == .second)
        clock.set(hours: 168, seconds: -1, after: origin)
        #expect(try await updater.apply() == nil)
        clock.set(hours: 168, after: origin)
        #expect(try await updater.apply()?.window == .third)
        clock.set(hours: 840, seconds: -1, after: origin)
        #expect(try await updater.record { $0.paymentTier = .low }?.window == .third)
        clock.set(hours: 840, after: origin)
        #expect(try await updater.record { $0.paymentTier = .high } == nil)
        #expect(await client.updates(through: .skAdNetwork).map(\.window) == [.first, .second, .third, .third])
    }

    @Test func aLockedWindowTakesNoMoreUpdatesUntilTheNext() async throws {
        let (updater, client, clock, _) = makeUpdater(Shop.self)
        let origin = try #require(await updater.windowsStart)
        // Shop locks window 1 when paymentTier == high.
        let locked = try await updater.record { $0.paymentTier = .high }
        #expect(locked == ConversionValueUpdate(window: .first, fineValue: 6, coarseValue: .high, lockWindow: true))
        #expect(try await updater.record { $0.registered = true } == nil)
        #expect(try await updater.record { $0.dayOneAction = .ordered } == nil)
        clock.set(hours: 50, after: origin)
        #expect(
            try await updater.apply()
                == ConversionValueUpdate(window: .second, fineValue: 31, coarseValue: .high, lockWindow: false))
        #expect(await client.updates(through: .skAdNetwork).count == 2)
        #expect(await client.updates(through: .adAttributionKit).count == 2)
    }

    @Test func aWindowOneLockDecidedAtHourFiftyDoesNotLockTheSecondPostback() async throws {
        let (updater, _, clock, _) = makeUpdater(Shop.self)
        let origin = try #require(await updater.windowsStart)
        clock.set(hours: 50, after: origin)
        // In window 1 this state would lock; at hour 50 it is window 2, which Shop never locks.
        let update = try await updater.record { $0.paymentTier = .high }
        #expect(update == ConversionValueUpdate(window: .second, fineValue: 6, coarseValue: .high, lockWindow: false))
    }

    @Test func increaseOnlyNeverSendsALowerFineValue() async throws {
        let (updater, client, _, _) = makeUpdater(
            Shop.self, options: .init(increaseOnly: true), frameworks: [.skAdNetwork])
        try await updater.record {
            $0.registered = true
            $0.dayOneAction = .browsed
        }  // 9
        let lower = try await updater.record { $0.dayOneAction = .none }  // state 1, coarse medium
        #expect(lower == nil)  // 9 again with the same coarse value: nothing new to send
        try await updater.record { $0.paymentTier = .low }  // 3 < 9: sends 9 with the new coarse value
        #expect(await client.updates(through: .skAdNetwork).map(\.fineValue) == [9])
        try await updater.record { $0.paymentTier = .medium }  // 5, coarse high
        #expect(await client.updates(through: .skAdNetwork).map(\.fineValue) == [9, 9])
        #expect(await client.updates(through: .skAdNetwork).last?.coarseValue == .high)
        try await updater.record { $0.dayOneAction = .ordered }  // 29 > 9
        #expect(await client.updates(through: .skAdNetwork).map(\.fineValue) == [9, 9, 29])

        let (plain, plainClient, _, _) = makeUpdater(Shop.self, frameworks: [.skAdNetwork])
        try await plain.record {
            $0.registered = true
            $0.dayOneAction = .browsed
        }
        try await plain.record { $0.dayOneAction = .none }
        #expect(await plainClient.updates(through: .skAdNetwork).map(\.fineValue) == [9, 1])
    }

    @Test func stateAndWindowsSurviveARelaunch() async throws {
        let store = InMemoryConversionValueStore()
        let clock = TestClock()
        let (first, firstClient, _, _) = makeUpdater(Subscription.self, store: store, clock: clock)
        let origin = try #require(await first.windowsStart)
        try await first.record {
            $0.revenue = .mid
            $0.startedTrial = true
        }
        #expect(await firstClient.sent.count == 2)

        clock.set(hours: 24, after: origin)
        let (second, secondClient, _, _) = makeUpdater(Subscription.self, store: store, clock: clock)
        #expect(await second.state == Subscription(revenue: .mid, startedTrial: true))
        #expect(await second.windowsStart == origin)
        #expect(try await second.apply() == nil)  // window 1 already has these values
        #expect(await secondClient.sent.isEmpty)
        clock.set(hours: 240, after: origin)
        #expect(try await second.apply()?.window == .third)
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
        for framework in AttributionFramework.allCases {
            let updates = await client.updates(through: framework)
            // Every update differs from the one before it, and the last one is the final state's.
            #expect(zip(updates, updates.dropFirst()).allSatisfy { $0 != $1 })
            #expect(updates.last?.fineValue == sequential.fineValue)
        }
        #expect(try await updater.apply() == nil)
    }
}
