import Foundation
import SkanRuntime

// The one line an app adds per schema: the generated type works with the runtime's updater.
extension Shop: ConversionValueState {}

/// A clock the demo moves through the hours after first launch.
final class JourneyClock: ConversionClock, @unchecked Sendable {
    let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01 00:00 UTC
    private let lock = NSLock()
    private var seconds = 0.0
    var now: Date { lock.withLock { start.addingTimeInterval(seconds) } }
    func advance(to seconds: Double) { lock.withLock { self.seconds = seconds } }
}

/// `h:mm:ss` after first launch.
func elapsed(_ seconds: Double) -> String {
    let total = Int(seconds)
    return String(format: "%3d:%02d:%02d", total / 3_600, total / 60 % 60, total % 60)
}

func hours(_ value: Double, minus seconds: Double = 0) -> Double { value * 3_600 - seconds }

let clock = JourneyClock()
let client = RecordingPostbackClient()
let updater = ConversionValueUpdater<Shop>(store: InMemoryConversionValueStore(), client: client, clock: clock)

/// What the user does, by time after first launch; windows change at hours 48, 168 and 840.
let journey: [(at: Double, event: String, change: @Sendable (inout Shop) -> Void)] = [
    (0, "first launch", { _ in }),
    (hours(2), "browses the catalogue", { $0.dayOneAction = .browsed }),
    (hours(5), "registers", { $0.registered = true }),
    (hours(12), "adds to cart", { $0.dayOneAction = .addedToCart }),
    (hours(48, minus: 1), "launches again", { _ in }),
    (hours(48), "launches again", { _ in }),
    (hours(77), "buys for $12", { $0.paymentTier = .medium }),
    (hours(168, minus: 1), "launches again", { _ in }),
    (hours(168), "launches again", { _ in }),
    (hours(216), "buys for $40", { $0.paymentTier = .high }),
    (hours(840, minus: 1), "launches again", { _ in }),
    (hours(840), "launches after the last window", { _ in }),
]

print("   h:mm:ss  event                           window  fine  coarse  lock")
for step in journey {
    clock.advance(to: step.at)
    let update = try await updater.record(step.change)
    let window = await updater.currentWindow.map { String($0.number) } ?? "-"
    let event = step.event.padding(toLength: 30, withPad: " ", startingAt: 0)
    let columns = "\(elapsed(step.at))  \(event)  \(window.padding(toLength: 6, withPad: " ", startingAt: 0))"
    if let update {
        let fine = String(update.fineValue).padding(toLength: 4, withPad: " ", startingAt: 0)
        print(
            "\(columns)  \(fine)  \(update.coarseValue.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0))  \(update.lockWindow)"
        )
    } else {
        print("\(columns)  (no update)")
    }
}
for framework in AttributionFramework.allCases {
    print("\(await client.updates(through: framework).count) updates sent through \(framework)")
}
// The windows' vocabulary comes with SkanRuntime alone.
let windowAtHour200: ConversionWindow? = ConversionWindow.window(
    at: clock.start.addingTimeInterval(hours(200)), firstLaunch: clock.start)
let firstWindowEnds: PerWindow<TimeInterval> = ConversionWindow.Schedule.production.ends
let firstWindowEndHour = Int(firstWindowEnds[.first] / 3_600)
print("hour 200 is in window \(windowAtHour200?.number ?? 0); window 1 ends at hour \(firstWindowEndHour)")

// Day 60: the user opens the app from a re-engagement ad. The link carries AdAttributionKit's conversion tag;
// the re-engagement has windows of its own, counted from the open, and only AdAttributionKit hears of it.
clock.advance(to: hours(60 * 24))
let link = URL(string: "https://shop.example.com/deals?AdAttributionKitReengagementOpen=5E1C0A77")!
if let open = ReengagementOpen(url: link, openedAt: clock.now) {
    let reengagement = ConversionValueUpdater<Shop>(
        conversion: .reengagement(open), store: InMemoryConversionValueStore(), client: client, clock: clock)
    let first = try await reengagement.record { $0.dayOneAction = .ordered }
    print(
        "re-engagement \(open.conversionTag ?? "untagged"): window \(first.map { "\($0.window)" } ?? "-"), fine \(first?.fineValue ?? 0)"
    )
    clock.advance(to: hours(60 * 24 + 48))
    let second = try await reengagement.apply()
    print("re-engagement, 48 hours after the open: window \(second.map { "\($0.window)" } ?? "-")")
}
print(
    "\(await client.sent.filter { $0.conversion != .install }.count) re-engagement updates, all through adAttributionKit"
)

// A schema with events (Game.skan): the app logs what happens; the updater derives the fields, moves time on,
// and keeps the activity.
extension Game: EventConversionValueState {}

let gameClock = JourneyClock()
let gameClient = RecordingPostbackClient(frameworks: [.adAttributionKit])
let game = ConversionValueUpdater<Game>(store: InMemoryConversionValueStore(), client: gameClient, clock: gameClock)
let events: [(at: Double, event: Game.Event)] = [
    (0.1, .sign_up), (3.5, .purchase(amount: 4.99)), (20, .purchase(amount: 10)), (50, .purchase(amount: 40)),
]
for step in events {
    gameClock.advance(to: hours(step.at))
    let update = try await game.log(step.event)
    print(
        "game \(elapsed(hours(step.at)))  \(step.event)".padding(toLength: 46, withPad: " ", startingAt: 0)
            + (update.map {
                "window \($0.window) fine \($0.fineValue) \($0.coarseValue.rawValue) lock \($0.lockWindow)"
            }
                ?? "(no update)"))
}
