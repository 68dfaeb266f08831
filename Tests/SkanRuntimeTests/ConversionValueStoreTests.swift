import Foundation
import GeneratedPublic
import SkanCore
import SkanRuntime
import Testing

/// The store keeps state per schema version and the first launch apart, so that an app update with a
/// new schema version keeps the user's windows.
@Suite(.serialized) struct ConversionValueStoreTests {
    /// A UserDefaults suite of its own, removed afterwards.
    func withDefaults(_ body: (UserDefaults) async throws -> Void) async throws {
        let suite = "skanc-tests-\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        try await body(defaults)
    }

    @Test func userDefaultsStoreRoundTrips() async throws {
        try await withDefaults { defaults in
            let store = UserDefaultsConversionValueStore(key: "skanc.Shop.v3", defaults: defaults)
            #expect(store.load() == nil)
            #expect(store.loadFirstLaunch() == nil)
            let update = ConversionValueUpdate(window: .first, fineValue: 11, coarseValue: .medium, lockWindow: false)
            let state = StoredConversionState(
                fineValue: 11, skAdNetwork: [1: update], adAttributionKit: [1: update], highestFineValueSent: 11)
            store.save(state)
            store.saveFirstLaunch(Date(timeIntervalSince1970: 5))
            let reopened = UserDefaultsConversionValueStore(key: "skanc.Shop.v3", defaults: defaults)
            #expect(reopened.load() == state)
            #expect(reopened.loadFirstLaunch() == Date(timeIntervalSince1970: 5))
            #expect(defaults.object(forKey: "skanc.firstLaunch") as? Double == 5)
        }
    }

    @Test func shopThreeUpgradesToFourMidJourneyInsideTheSameWindows() async throws {
        try await withDefaults { defaults in
            let clock = TestClock()
            let v3Client = RecordingPostbackClient()
            let v3 = ConversionValueUpdater<Shop>(
                store: UserDefaultsConversionValueStore(key: "skanc.Shop.v3", defaults: defaults), client: v3Client,
                clock: clock)
            let origin = try #require(await v3.windowsStart)
            try await v3.record {
                $0.registered = true
                $0.dayOneAction = .browsed
            }
            #expect(await v3Client.updates(through: .skAdNetwork).map(\.window) == [.first])

            // Hour 60: the app updates to a build with schema version 4.
            clock.set(hours: 60, after: origin)
            let v4Client = RecordingPostbackClient()
            let v4 = ConversionValueUpdater<ShopV4>(
                store: UserDefaultsConversionValueStore(key: "skanc.Shop.v4", defaults: defaults), client: v4Client,
                clock: clock)
            #expect(await v4.windowsStart == origin)
            #expect(await v4.currentWindow == .second)
            #expect(await v4.state == ShopV4())  // a new layout starts from its own empty state
            let update = try await v4.record { $0.subscribed = true }
            #expect(
                update == ConversionValueUpdate(window: .second, fineValue: 32, coarseValue: .high, lockWindow: false))
            clock.set(hours: 168, seconds: -1, after: origin)
            #expect(await v4.currentWindow == .second)
            clock.set(hours: 168, after: origin)
            #expect(await v4.currentWindow == .third)
            // The version 3 state is still there, untouched, under its own key.
            #expect(UserDefaultsConversionValueStore(key: "skanc.Shop.v3", defaults: defaults).load()?.fineValue == 9)
        }
    }

    @Test func aFirstLaunchStoredByAnEarlierReleaseIsKept() async throws {
        try await withDefaults { defaults in
            // Earlier releases kept the whole state, first launch included, under the versioned key.
            let earlier = #"{"firstLaunch":-978307100,"fineValue":9,"applied":{}}"#  // 1970-01-01 00:01:40
            defaults.set(Data(earlier.utf8), forKey: "skanc.Shop.v3")
            let store = UserDefaultsConversionValueStore(
                key: "skanc.Shop.v4", earlierKeys: ["skanc.Shop.v3"], defaults: defaults)
            #expect(store.loadFirstLaunch() == Date(timeIntervalSince1970: 100))
            #expect(store.load() == nil)
            let updater = ConversionValueUpdater<ShopV4>(
                store: store, client: RecordingPostbackClient(), clock: TestClock())
            #expect(await updater.windowsStart == Date(timeIntervalSince1970: 100))
            #expect(await updater.currentWindow == nil)  // decades later
        }
    }
}
