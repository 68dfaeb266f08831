import SkanCompiler
import SkanCore
import SkanSchema

/// A journey in window 1 along which the fine value goes down (`non-monotone-fine`): SKAdNetwork 3 and earlier,
/// and the runtime's increase-only option, keep only increases, so the lower value is lost. Found by running the
/// reference semantics over a fixed set of pseudo-random journeys of the schema's events (amounts on every bound
/// it names), app-set fields left as they start; deterministic, so the same schema always gets the same answer.
struct FineValueDrop {
    /// The fine value before and after.
    var from: Int
    var to: Int
    /// The hour and the event (nil: time alone) at which it goes down.
    var hour: Double
    var event: String?
    /// The first field whose code went down.
    var field: Int

    static func find(in schema: Schema) -> FineValueDrop? {
        guard schema.fields.contains(where: { $0.derivation != nil }) else { return nil }
        let amounts = Self.amounts(of: schema)
        var random = SplitMix64(seed: 0x5EED_F17E)
        // The fine value alone decides a drop: the compiled program gives it without the coarse rules.
        let program = ActivityProgram(schema: schema)
        for _ in 0..<160 {
            // The activity kept up to date event by event: a journey costs one evaluation a step, not a replay of
            // every event before it (events arrive in hour order, each at or before the hour evaluated).
            var running = program.start
            var hour = 0.0
            var previous = (running: running, hour: 0.0, fine: program.evaluate(running, at: 0, window: nil).fineValue)
            for _ in 0..<30 {
                hour += [0.5, 2, 6, 11].randomElement(using: &random)!
                guard hour < 48 else { break }
                var logged: Int?
                if !schema.events.isEmpty, random.next() % 4 != 0 {
                    let event = Int(random.next() % UInt64(schema.events.count))
                    let amount = schema.events[event].hasValue ? amounts.randomElement(using: &random)! : nil
                    running.log(LoggedEvent(event: event, hour: hour, amount: amount))
                    logged = event
                }
                let fine = program.evaluate(running, at: hour, window: nil).fineValue
                if fine < previous.fine {
                    // Which field went down, by the reference semantics.
                    let before = previous.running.evaluate(at: previous.hour).state.codes
                    let after = running.evaluate(at: hour).state.codes
                    return FineValueDrop(
                        from: previous.fine, to: fine, hour: hour, event: logged.map { schema.events[$0].name },
                        field: before.indices.first { before[$0] > after[$0] } ?? 0)
                }
                previous = (running, hour, fine)
            }
        }
        return nil
    }

    static func amounts(of schema: Schema) -> [Double] {
        var amounts: Set<Double> = [0, 1, 5, 20, 100]
        for field in schema.fields {
            for fieldCase in field.cases { if let bucket = fieldCase.bucket { amounts.insert(bucket.lower) } }
        }
        return amounts.sorted()
    }
}
