import SkanCore
import SkanSchema

/// What a schema with events and time adds to its generated type: the `Event` the app logs, the `Activity` it
/// accumulates (running counts and sums, so that a long journey costs nothing more), `log(_:at:)` and
/// `advance(to:)`, and the derivation of its derived fields. The same semantics as `Schema.evaluate(_:at:)`, for
/// events logged in hour order.
extension SwiftGenerator {
    /// Every source of the schema's derived fields, in field order, with its index in `Activity.sources`.
    var sources: [ActivitySource] {
        schema.fields.compactMap { field in
            switch field.derivation {
            case .buckets(let source)?, .count(let source)?: source.measure == .days ? nil : source
            default: nil
            }
        }
    }

    func eventCaseName(_ event: Event) -> String {
        SwiftNames.identifier(names.eventCaseNames[event.name]!)
    }

    func renderEventType(_ out: inout CodeWriter) {
        out.line("/// An event the app logs; value events carry their amount.")
        out.block("\(access)enum Event: Swift.Hashable, Swift.Sendable {") { out in
            for event in schema.events {
                if let currency = event.currency {
                    out.line("/// `\(event.name)`, with its amount in \(currency).")
                    out.line("case \(eventCaseName(event))(amount: Swift.Double)")
                } else {
                    out.line("/// `\(event.name)`.")
                    out.line("case \(eventCaseName(event))")
                }
            }
            out.line()
            out.line("/// The event's place in `Activity.counts` and `Activity.sums`.")
            out.block("var index: Swift.Int {") { out in
                out.line("switch self {")
                for (index, event) in schema.events.enumerated() {
                    out.line("case .\(eventCaseName(event)): return \(index)")
                }
                out.line("}")
            }
            out.line()
            out.line("/// The amount of a value event; 0 for a counted one.")
            out.block("var amount: Swift.Double {") { out in
                out.line("switch self {")
                for event in schema.events {
                    out.line(
                        event.hasValue
                            ? "case .\(eventCaseName(event))(let amount): return amount"
                            : "case .\(eventCaseName(event)): return 0")
                }
                out.line("}")
            }
            guard schema.events.contains(where: \.hasValue) else { return }
            out.line()
            out.line(
                "/// Minor units of the amount's currency per whole unit (100 for cents): amounts are summed in whole")
            out.line("/// minor units. Nil for a counted event, or a currency ISO 4217 gives no minor unit.")
            out.block("var unitsPerWhole: Swift.Double? {") { out in
                out.line("switch self {")
                for event in schema.events {
                    let units = event.unitsPerWhole.map { String(Int($0)) } ?? "nil"
                    out.line("case .\(eventCaseName(event)): return \(units)")
                }
                out.line("}")
            }
        }
    }

    func renderActivityType(_ out: inout CodeWriter) {
        let count = schema.events.count
        out.line("/// What the app logged, as the derived fields and conditions read it: each event's count and sum")
        out.line("/// since first launch, each source's total in its own scope, and the hours since first launch.")
        out.line("/// Events are logged in hour order; an hour before the latest counts as the latest.")
        out.block("\(access)struct Activity: Swift.Hashable, Swift.Sendable, Swift.Codable {") { out in
            out.line("/// Hours since first launch, at the latest log or advance.")
            out.line("\(access)private(set) var hours: Swift.Double = 0")
            out.line("/// How many times each event was logged, by `Event.index`.")
            out.line("\(access)private(set) var counts: [Swift.Double] = Swift.Array(repeating: 0, count: \(count))")
            out.line("/// The sum of each event's amounts, by `Event.index`.")
            out.line("\(access)private(set) var sums: [Swift.Double] = Swift.Array(repeating: 0, count: \(count))")
            out.line("/// Each source's total in its scope, in the order the derived fields name them.")
            out.line(
                "\(access)private(set) var sources: [Swift.Double] = Swift.Array(repeating: 0, count: \(sources.count))"
            )
            out.line("/// Where the current conversion window began: hour 0, 48 or 168.")
            out.line("\(access)private(set) var windowStart: Swift.Double = 0")
            out.line()
            out.line("/// Nothing logged, at hour 0.")
            out.line("\(access)init() {}")
            out.line()
            out.line("/// Whole days since first launch (past a billion hours, every count field has long saturated).")
            out.line(
                "\(access)var days: Swift.Double { Swift.Double(Swift.Int(Swift.min(Swift.max(self.hours, 0), 1e9) / 24)) }"
            )
            out.line()
            out.line("/// Logs `event` at `hour`.")
            out.block("\(access)mutating func log(_ event: Event, at hour: Swift.Double) {") { out in
                // A schema with time but no events has an Event with no case: nothing to log.
                guard !schema.events.isEmpty else {
                    return out.line("// No event has a case: there is nothing to log.")
                }
                out.line("self.advance(to: hour)")
                out.line("let (index, amount) = (event.index, event.amount)")
                // The hour a `within` scope compares, the latest (an earlier one counts as the latest).
                if sources.contains(where: { if case .within = $0.scope { true } else { false } }) {
                    out.line("let hour = self.hours")
                }
                out.line("self.counts[index] += 1")
                let valued = schema.events.contains(where: \.hasValue)
                out.line(
                    valued
                        ? "self.sums[index] = Self.adding(amount, to: self.sums[index], event.unitsPerWhole)"
                        : "self.sums[index] += amount")
                for (position, source) in sources.enumerated() {
                    let events = "[" + source.events.map(String.init).joined(separator: ", ") + "]"
                    var test = "\(events).contains(index)"
                    if case .within(let hours) = source.scope { test += " && hour < \(ConditionNumber.text(hours))" }
                    let total = "self.sources[\(position)]"
                    out.line(
                        source.measure == .amount
                            ? "if \(test) { \(total) = Self.adding(amount, to: \(total), event.unitsPerWhole) }"
                            : "if \(test) { \(total) += 1 }")
                }
            }
            if schema.events.contains(where: \.hasValue) {
                out.line()
                out.line(
                    "/// `total + amount` in whole minor units (`unitsPerWhole` of them make one): the amount rounded to"
                )
                out.line(
                    "/// one, so that a total is exact in the currency's units (0.1 + 0.2 is 0.3); plain without one.")
                out.block(
                    "private static func adding(_ amount: Swift.Double, to total: Swift.Double, _ unitsPerWhole: Swift.Double?) -> Swift.Double {"
                ) { out in
                    out.line("guard let unitsPerWhole else { return total + amount }")
                    out.line(
                        "return ((total * unitsPerWhole).rounded() + (amount * unitsPerWhole).rounded()) / unitsPerWhole"
                    )
                }
            }
            out.line()
            out.line("/// Moves time on to `hour` (never back): a new window starts its in-window sources at 0.")
            out.block("\(access)mutating func advance(to hour: Swift.Double) {") { out in
                out.line("guard hour > self.hours else { return }")
                out.line("self.hours = hour")
                out.line("let start: Swift.Double = hour < 48 ? 0 : hour < 168 ? 48 : 168")
                out.line("guard start != self.windowStart else { return }")
                out.line("self.windowStart = start")
                for (position, source) in sources.enumerated() where source.scope == .inWindow {
                    out.line("self.sources[\(position)] = 0")
                }
            }
        }
    }

    /// `log(_:at:)`, `advance(to:)` and the derivation of the derived fields, on the state.
    func renderActivityMethods(_ out: inout CodeWriter) {
        out.line(
            "/// Logs `event` at `hour` (hours since first launch, in order) and derives the derived fields again.")
        out.block("\(access)mutating func log(_ event: Event, at hour: Swift.Double) {") { out in
            guard !schema.events.isEmpty else { return out.line("// No event has a case: there is nothing to log.") }
            out.line("self.activity.log(event, at: hour)")
            out.line("self.derive()")
        }
        out.line()
        out.line("/// The app opens at `hour`: time moves on (windows, `hours`, `count of days`), nothing is logged.")
        out.block("\(access)mutating func advance(to hour: Swift.Double) {") { out in
            out.line("self.activity.advance(to: hour)")
            out.line("self.derive()")
        }
        out.line()
        out.line("/// Takes `activity` (one the app kept, say) and derives the derived fields from it.")
        out.block("\(access)mutating func restore(_ activity: Activity) {") { out in
            out.line("self.activity = activity")
            out.line("self.derive()")
        }
        out.line()
        out.line("/// Each derived flag and field from the activity and the fields before it, in declaration order.")
        out.block("private mutating func derive() {") { out in
            var position = 0
            for field in schema.fields {
                let name = "self.\(propertyName(field))"
                switch field.derivation {
                case nil: continue
                case .flag(let condition)?:
                    out.line("\(name) = \(swiftCondition(condition))")
                case .firstMatch(let conditions)?:
                    for (index, (fieldCase, condition)) in zip(field.cases, conditions).enumerated() {
                        let value = ".\(caseName(fieldCase, of: field))"
                        if condition == .always || index == conditions.count - 1 {
                            out.line((index == 0 ? "" : "} else { ") + "\(name) = \(value)" + (index == 0 ? "" : " }"))
                            break
                        }
                        out.line((index == 0 ? "if " : "} else if ") + "\(swiftCondition(condition)) {")
                        out.line("    \(name) = \(value)")
                    }
                case .buckets(let source)?, .count(let source)?:
                    let type = propertyType(field)
                    let value: String
                    if source.measure == .days {
                        value = "self.activity.days"
                    } else {
                        value = "self.activity.sources[\(position)]"
                        position += 1
                    }
                    out.line(
                        source.measure == .amount
                            ? "\(name) = \(type)(amount: \(value))"
                            : "\(name) = \(type)(count: Swift.Int(Swift.min(\(value), 1_000_000_000)))")
                }
            }
        }
        out.line()
    }
}
