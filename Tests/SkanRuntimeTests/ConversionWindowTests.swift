import Foundation
import GeneratedPublic
import SkanCore
import SkanRuntime
import Testing

/// Windows end 48, 168 and 840 hours after first launch (Apple, "Receiving postbacks in multiple
/// conversion windows"), checked one second either side of each end.
@Suite struct ConversionWindowTests {
    let start = Date(timeIntervalSince1970: 1_767_225_600)

    func window(hours: Double, seconds: Double = 0) -> Int? {
        ConversionWindow.window(at: start.addingTimeInterval(hours * 3_600 + seconds), firstLaunch: start)?.number
    }

    @Test func eachWindowEndsOnItsHour() {
        #expect(window(hours: 0) == 1)
        #expect(window(hours: 48, seconds: -1) == 1)
        #expect(window(hours: 48) == 2)
        #expect(window(hours: 48, seconds: 1) == 2)
        #expect(window(hours: 168, seconds: -1) == 2)
        #expect(window(hours: 168) == 3)
        #expect(window(hours: 168, seconds: 1) == 3)
        #expect(window(hours: 840, seconds: -1) == 3)
        #expect(window(hours: 840) == nil)
        #expect(window(hours: 840, seconds: 1) == nil)
    }

    @Test func theOldWholeDayCountIsGone() {
        // Counting whole days put hours 48-72 in window 1 and 168-192 in window 2.
        #expect(window(hours: 50) == 2)
        #expect(window(hours: 71) == 2)
        #expect(window(hours: 170) == 3)
        #expect(window(hours: 191) == 3)
    }

    @Test func aClockSetBackCountsAsTheFirstWindow() {
        #expect(window(hours: -24) == 1)
    }

    @Test func endsAreTheDocumentedHours() {
        #expect(ConversionWindow.ends == [172_800, 604_800, 3_024_000])
    }
}

/// The two schedules, through the public API: production's hours from the conversion's start; Developer Mode's
/// 0-3, 3-6 and 6-9 minutes from the first update (AdAttributionKit, "Testing ad attributions with Developer
/// Mode").
@Suite struct ConversionWindowScheduleTests {
    let start = Date(timeIntervalSince1970: 1_767_225_600)

    @Test func productionIsTheDocumentedHours() {
        let schedule = ConversionWindow.Schedule.production
        #expect(schedule.span(of: .first) == 0..<172_800)
        #expect(schedule.span(of: .second) == 172_800..<604_800)
        #expect(schedule.span(of: .third) == 604_800..<3_024_000)
        #expect(!schedule.countsFromFirstUpdate)
        #expect(schedule.window(at: start.addingTimeInterval(172_799), since: start) == .first)
        #expect(schedule.window(at: start.addingTimeInterval(172_800), since: start) == .second)
    }

    @Test func developerModeIsThreeMinutesEach() {
        let schedule = ConversionWindow.Schedule.developerMode
        #expect(schedule.span(of: .first) == 0..<180)
        #expect(schedule.span(of: .second) == 180..<360)
        #expect(schedule.span(of: .third) == 360..<540)
        #expect(schedule.countsFromFirstUpdate)
        for (seconds, window) in [(0, 1), (179, 1), (180, 2), (359, 2), (360, 3), (539, 3)] {
            #expect(schedule.window(at: start.addingTimeInterval(Double(seconds)), since: start)?.number == window)
        }
        #expect(schedule.window(at: start.addingTimeInterval(540), since: start) == nil)
    }

    @Test func theUpdaterOnDeveloperModeCountsFromTheFirstUpdate() async throws {
        let clock = TestClock()
        let client = RecordingPostbackClient()
        let updater = ConversionValueUpdater<Shop>(
            schedule: .developerMode, store: InMemoryConversionValueStore(), client: client, clock: clock)
        // An hour after launch and before any update: still window 1, and no start yet.
        let launch = clock.now
        clock.set(hours: 1, after: launch)
        #expect(await updater.windowsStart == nil)
        #expect(try await updater.record { $0.registered = true }?.window == .first)
        let firstUpdate = try #require(await updater.windowsStart)
        #expect(firstUpdate == launch.addingTimeInterval(3_600))
        clock.set(hours: 0, seconds: 180, after: firstUpdate)
        #expect(try await updater.apply()?.window == .second)
        clock.set(hours: 0, seconds: 360, after: firstUpdate)
        #expect(try await updater.apply()?.window == .third)
        clock.set(hours: 0, seconds: 540, after: firstUpdate)
        #expect(try await updater.apply() == nil)
        #expect(await client.updates(through: .adAttributionKit).map(\.window) == [.first, .second, .third])
    }

    @Test func aFirstUpdateNothingTookStartsNoWindows() async throws {
        let clock = TestClock()
        let client = RecordingPostbackClient()
        let updater = ConversionValueUpdater<Shop>(
            schedule: .developerMode, store: InMemoryConversionValueStore(), client: client, clock: clock)
        await client.failNext(1)
        _ = try? await updater.record { $0.registered = true }
        #expect(await updater.windowsStart == nil)
    }

    @Test func theFirstLaunchTheAppKnowsWinsOverTheStoredOne() async throws {
        let clock = TestClock()
        let store = InMemoryConversionValueStore(firstLaunch: clock.now)
        // The app adopted the runtime in an update: it knows it first ran ten days earlier.
        let firstRun = clock.now.addingTimeInterval(-10 * 86_400)
        let updater = ConversionValueUpdater<Shop>(
            firstLaunch: firstRun, store: store, client: RecordingPostbackClient(), clock: clock)
        #expect(await updater.windowsStart == firstRun)
        #expect(await updater.currentWindow == .third)
        #expect(store.loadFirstLaunch() == firstRun)
    }
}
