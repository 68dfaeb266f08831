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
        for _ in 0..<160 {
            var activity = Activity()
            var hour = 0.0
            var previous = schema.evaluate(activity, at: 0)
            for _ in 0..<30 {
                hour += [0.5, 2, 6, 11].randomElement(using: &random)!
                guard hour < 48 else { break }
                var logged: Int?
                if !schema.events.isEmpty, random.next() % 4 != 0 {
                    let event = Int(random.next() % UInt64(schema.events.count))
                    let amount = schema.events[event].hasValue ? amounts.randomElement(using: &random)! : nil
                    activity.events.append(LoggedEvent(event: event, hour: hour, amount: amount))
                    logged = event
                }
                let now = schema.evaluate(activity, at: hour)
                if now.fineValue < previous.fineValue {
                    let field =
                        previous.state.codes.indices.first { previous.state.codes[$0] > now.state.codes[$0] } ?? 0
                    return FineValueDrop(
                        from: previous.fineValue, to: now.fineValue, hour: hour,
                        event: logged.map { schema.events[$0].name }, field: field)
                }
                previous = now
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
