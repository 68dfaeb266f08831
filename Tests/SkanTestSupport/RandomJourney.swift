import SkanCompiler
import SkanCore
public import SkanSchema

/// Random journeys for a schema, the same on every machine: its events (value events with amounts on every
/// bucket edge, the cent below, and the amounts conditions name, each in whole minor units of the event's
/// currency, as an app logs prices) and its app-set fields, at hours across the three windows.
public enum RandomJourney {
    /// Up to 50 journey lines (JSON lines, in hour order) for `schema`, drawn from `seed`.
    public static func text(for schema: Schema, seed: Int) -> String {
        var generator = SplitMix64(seed: UInt64(seed) &+ 0x5A11)
        let amounts = JourneyAmounts.edges(of: schema)
        let setFields = schema.fields.filter { $0.derivation == nil }
        var hour = 0.0
        var lines: [String] = []
        for _ in 0..<50 {
            hour += [0.5, 3, 11, 30].randomElement(using: &generator)!
            guard hour < 800 else { break }
            if !setFields.isEmpty, schema.events.isEmpty || Bool.random(using: &generator) {
                let field = setFields.randomElement(using: &generator)!
                let fieldCase = field.cases.randomElement(using: &generator)!
                lines.append("{\"hour\": \(hour), \"set\": {\"\(field.name)\": \"\(fieldCase.name)\"}}")
            } else if let event = schema.events.randomElement(using: &generator) {
                // 999.99 is 999 yen: the unit below a bound, on the currency's own grid.
                let amount = MinorUnitSum.wholeAtOrBelow(
                    amounts.randomElement(using: &generator)!, unitsPerWhole: event.unitsPerWhole)
                lines.append(
                    event.hasValue
                        ? "{\"hour\": \(hour), \"event\": \"\(event.name)\", \"value\": \(amount)}"
                        : "{\"hour\": \(hour), \"event\": \"\(event.name)\"}")
            } else {
                lines.append("{\"hour\": \(hour)}")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
