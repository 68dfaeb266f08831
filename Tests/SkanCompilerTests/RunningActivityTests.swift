import SkanCompiler
import SkanCore
import SkanTestSupport
import Testing

/// `RunningActivity`, which keeps the reference semantics up to date event by event, against the semantics as
/// the language reference states them, recomputed from every event logged so far at each step: conditions read
/// counts and sums since first launch; a source counts its events before `within` hours, or from the start of the
/// window the hour is in.
@Suite struct RunningActivityTests {
    /// The definition, computed from scratch.
    static func measure(_ source: ActivitySource, logged: [LoggedEvent], hour: Double) -> Double {
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
        return source.measure == .count ? Double(counted.count) : counted.reduce(0) { $0 + ($1.amount ?? 0) }
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
                    schema.events[event].hasValue ? [0, 0.99, 4.99, 20, 120].randomElement(using: &generator)! : nil
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
                        evaluation.measures[index] == Self.measure(source, logged: logged, hour: hour),
                        "\(path) \(field.name) at \(hour)")
                default: break
                }
            }
            #expect(evaluation == schema.evaluate(Activity(events: logged), at: hour), "\(path) at \(hour)")
            // Conditions over counts and sums recounted from every event: the same coarse value and lock.
            let facts = Recounted(logged: logged, hours: hour)
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
        let logged: [LoggedEvent]
        let hours: Double

        func count(of event: Int) -> Double { Double(logged.filter { $0.event == event }.count) }
        func sum(of event: Int) -> Double { logged.filter { $0.event == event }.reduce(0) { $0 + ($1.amount ?? 0) } }
    }
}
