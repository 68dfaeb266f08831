import Foundation
import SkanRuntime

// The one line an app adds per schema: the generated type works with the runtime's updater.
extension Shop: ConversionValueState {}

/// A clock the demo moves through the days.
final class JourneyClock: ConversionClock, @unchecked Sendable {
    let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
    private let lock = NSLock()
    private var day = 0.0
    var now: Date { lock.withLock { start.addingTimeInterval(day * 86_400) } }
    func advance(to day: Double) { lock.withLock { self.day = day } }
}

let clock = JourneyClock()
let client = RecordingPostbackClient()
let updater = ConversionValueUpdater<Shop>(store: InMemoryConversionValueStore(), client: client, clock: clock)

/// What the user does, by day.
let journey: [(day: Double, event: String, change: @Sendable (inout Shop) -> Void)] = [
    (0.0, "first launch", { _ in }),
    (0.1, "browses the catalogue", { $0.dayOneAction = .browsed }),
    (0.2, "registers", { $0.registered = true }),
    (0.5, "adds to cart", { $0.dayOneAction = .addedToCart }),
    (1.5, "launches again", { _ in }),
    (3.2, "buys for $12", { $0.paymentTier = .medium }),
    (5.0, "launches again", { _ in }),
    (9.0, "buys for $40", { $0.paymentTier = .high }),
    (20.0, "launches again", { _ in }),
    (36.0, "launches after the last window", { _ in }),
]

print("day  event                           window  fine  coarse  lock")
for step in journey {
    clock.advance(to: step.day)
    let update = try await updater.record(step.change)
    let window = await updater.currentWindow.map(String.init) ?? "-"
    let event = step.event.padding(toLength: 30, withPad: " ", startingAt: 0)
    let day = String(format: "%4.1f", step.day)
    if let update {
        print("\(day) \(event)  \(window.padding(toLength: 6, withPad: " ", startingAt: 0))  \(String(update.fineValue).padding(toLength: 4, withPad: " ", startingAt: 0))  \(update.coarseValue.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0))  \(update.lockWindow)")
    } else {
        print("\(day) \(event)  \(window.padding(toLength: 6, withPad: " ", startingAt: 0))  (no update)")
    }
}
print("\(await client.updates.count) updates sent")
