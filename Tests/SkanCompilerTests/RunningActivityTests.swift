import SkanCompiler
import SkanCore
import SkanSchema
import SkanTestSupport
import Testing

/// `RunningActivity`, which keeps the reference semantics up to date event by event, against the semantics as
/// the language reference states them, recomputed from every event logged so far at each step: conditions read
/// counts and sums since first launch; a source counts its events before `within` hours, or from the start of the
/// window the hour is in.
@Suite struct RunningActivityTests {
    /// The definition, computed from scratch.
    static func measure(_ source: ActivitySource, in schema: Schema, logged: [LoggedEvent], hour: Double) -> Double {
        if source.measure == .days { return (max(hour, 0) / 24).rounded(.down) }
        var since = -Double.infinity
        var before = Double.infinity
        switch source.scope {
        case .sinceFirstLaunch: break
        case .within(let hours): before = hours
        case .inWindow:
            let window = ConversionWindow.allCases.first { hour < Double($0.hours.upperBound) } ?? .third
            since = Double(window.hours.lowerBound)
        }
        let counted = logged.filter { source.events.contains($0.event) && $0.hour >= since && $0.hour < before }
        return source.measure == .count
            ? Double(counted.count)
            : wholeUnitSum(counted.map { $0.amount ?? 0 }, unit: unit(of: source.events.first, in: schema))
    }

    /// The definition of a sum: each amount rounded to whole minor units (half away from zero), added as integers.
    static func wholeUnitSum(_ amounts: [Double], unit: Double?) -> Double {
        guard let unit else { return amounts.reduce(0, +) }
        return Double(amounts.reduce(0) { $0 + Int(($1 * unit).rounded()) }) / unit
    }

    /// Minor units per whole unit of the currencies the shipped schemas use, written out by hand (ISO 4217).
    static let currencyUnits: [String: Double] = ["USD": 100, "EUR": 100, "JPY": 1]

    static func unit(of event: Int?, in schema: Schema) -> Double? {
        guard let event, let currency = schema.events[event].currency else { return nil }
        return currencyUnits[currency]
    }

    @Test(arguments: ShippedSchemas.all, 0..<4)
    func everyStepAgreesWithTheDefinition(_ path: String, _ seed: Int) throws {
        let schema = try ShippedSchemas.compile(path)
        var generator = SplitMix64(seed: UInt64(seed) &* 0x2545_F491 &+ UInt64(path.utf8.count))
        var running = RunningActivity(schema: schema)
        var logged: [LoggedEvent] = []
        var hour = 0.0
        for _ in 0..<120 {
            hour += [0, 0.25, 3, 23.5, 48].randomElement(using: &generator)!
            if !schema.events.isEmpty, Bool.random(using: &generator) {
                let event = Int.random(in: 0..<schema.events.count, using: &generator)
                let amount =
                    schema.events[event].hasValue
                    ? [0, 0.99, 4.99, 20, 120, 0.1, 0.2, 0.7, 0.004, 0.005, 0.015].randomElement(using: &generator)!
                    : nil
                let entry = LoggedEvent(event: event, hour: hour, amount: amount)
                running.log(entry)
                logged.append(entry)
            }
            let evaluation = running.evaluate(at: hour)
            // Conditions and fields from the definition: every derived source measured afresh.
            for (index, field) in schema.fields.enumerated() {
                switch field.derivation {
                case .buckets(let source)?, .count(let source)?:
                    #expect(
                        evaluation.measures[index] == Self.measure(source, in: schema, logged: logged, hour: hour),
                        "\(path) \(field.name) at \(hour)")
                default: break
                }
            }
            #expect(evaluation == schema.evaluate(Activity(events: logged), at: hour), "\(path) at \(hour)")
            // Every currency the shipped schemas use is in the table by hand above, and agrees with ISO 4217's.
            for event in schema.events {
                #expect(event.unitsPerWhole == event.currency.flatMap { Self.currencyUnits[$0] })
            }
            // Conditions over counts and sums recounted from every event: the same coarse value and lock.
            let facts = Recounted(schema: schema, logged: logged, hours: hour)
            let codes = evaluation.state.codes
            if let window = evaluation.window {
                let coarse = schema.coarseRules(window: window).first { $0.condition.holds(for: codes, facts: facts) }
                #expect(evaluation.coarseValue == coarse?.value, "\(path) at \(hour)")
                let lock = schema.lockCondition(window: window)?.holds(for: codes, facts: facts) ?? false
                #expect(evaluation.lock == lock, "\(path) at \(hour)")
            }
        }
    }

    /// Counts and sums of every event logged, recounted.
    struct Recounted: ActivityFacts {
        let schema: Schema
        let logged: [LoggedEvent]
        let hours: Double

        func count(of event: Int) -> Double { Double(logged.filter { $0.event == event }.count) }
        func sum(of event: Int) -> Double {
            let amounts = logged.filter { $0.event == event }.map { $0.amount ?? 0 }
            return RunningActivityTests.wholeUnitSum(amounts, unit: RunningActivityTests.unit(of: event, in: schema))
        }
    }

    /// The reproducer: 0.7 + 0.1 as doubles is 0.7999999999999999, so `purchase.sum >= 0.8` failed to hold, and
    /// 0.1 + 0.2 passed `purchase.sum > 0.3`; in whole cents both are exact. In JPY, 0.4 is 0 yen.
    @Test func amountsAreSummedInWholeMinorUnits() throws {
        let schema = try #require(
            SchemaCompiler.compile(
                """
                schema Cents
                version 1
                event purchase value USD
                event gift value JPY
                flag reached at bit 0 when purchase.sum >= 0.8
                flag over at bit 1 when purchase.sum > 0.3
                flag yen at bit 2 when gift.sum >= 1
                coarse { low otherwise }
                """
            ).schema)
        var running = RunningActivity(schema: schema)
        for amount in [0.7, 0.1] { running.log(LoggedEvent(event: 0, hour: 1, amount: amount)) }
        #expect(running.evaluate(at: 1).state.codes[0] == 1)
        running = RunningActivity(schema: schema)
        for amount in [0.1, 0.2] { running.log(LoggedEvent(event: 0, hour: 1, amount: amount)) }
        #expect(running.evaluate(at: 1).state.codes[1] == 0)
        running.log(LoggedEvent(event: 0, hour: 1, amount: 0.005))
        #expect(running.evaluate(at: 1).state.codes[1] == 1, "half a cent rounds up to a whole one")
        for _ in 0..<3 { running.log(LoggedEvent(event: 1, hour: 1, amount: 0.4)) }
        #expect(running.evaluate(at: 1).state.codes[2] == 0, "0.4 yen is no yen, however often")
        running.log(LoggedEvent(event: 1, hour: 1, amount: 0.5))
        #expect(running.evaluate(at: 1).state.codes[2] == 1)
    }
}
