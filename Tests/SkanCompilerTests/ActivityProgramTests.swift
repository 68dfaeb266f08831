import SkanCompiler
import SkanCore
import SkanSchema
import SkanTestSupport
import Testing

/// `ActivityProgram`, the schema compiled for an app that interprets it, against `RunningActivity.evaluate`, the
/// reference semantics walking the model: the same fine value, coarse value, update and lock at every step of
/// random journeys, in the hour's window and in each window asked, for every shipped schema and for random
/// conditions nested with `not`, `and` and `or`.
@Suite struct ActivityProgramTests {
    /// Logs random events (amounts on value events), sets random app-set fields and moves time on, comparing the
    /// program with the reference after each step.
    static func compareOnRandomJourney(_ schema: Schema, seed: UInt64, _ label: String) {
        var generator = SplitMix64(seed: seed)
        let program = ActivityProgram(schema: schema)
        var running = program.start
        var hour = 0.0
        let appSet = schema.fields.indices.filter { schema.fields[$0].derivation == nil }
        for _ in 0..<150 {
            hour += [0, 0.25, 3, 23.5, 48, 200].randomElement(using: &generator)!
            if !schema.events.isEmpty, Bool.random(using: &generator) {
                let event = Int.random(in: 0..<schema.events.count, using: &generator)
                let amount =
                    schema.events[event].hasValue
                    ? [0, 0.99, 4.99, 20, 120, 0.005].randomElement(using: &generator)! : nil
                running.log(LoggedEvent(event: event, hour: hour, amount: amount))
            }
            if let field = appSet.randomElement(using: &generator), Int.random(in: 0..<4, using: &generator) == 0 {
                running.set(field: field, code: schema.fields[field].cases.randomElement(using: &generator)!.code)
            }
            expectSame(program.evaluate(running, at: hour), running.evaluate(at: hour), "\(label) at \(hour)")
            for window in ConversionWindow.allCases {
                expectSame(
                    program.evaluate(running, at: hour, window: window), running.evaluate(at: hour, window: window),
                    "\(label) window \(window.postbackSequenceIndex + 1) at \(hour)")
            }
        }
    }

    static func expectSame(_ answer: ActivityProgram.Answer, _ reference: ActivityEvaluation, _ label: String) {
        #expect(answer.fineValue == reference.fineValue, "\(label)")
        #expect(answer.window == reference.window, "\(label)")
        #expect(answer.coarseValue == reference.coarseValue, "\(label)")
        #expect(answer.sends == reference.sends, "\(label)")
        #expect(answer.lock == reference.lock, "\(label)")
    }

    @Test(arguments: ShippedSchemas.all)
    func everyShippedSchemaAgreesWithTheReference(_ path: String) throws {
        let schema = try ShippedSchemas.compile(path)
        for seed in 0..<3 { Self.compareOnRandomJourney(schema, seed: UInt64(seed) &+ UInt64(path.utf8.count), path) }
    }

    /// A random condition over two events, the hour and the flags declared before `flag`.
    static func condition(_ generator: inout SplitMix64, depth: Int, flag: Int) -> String {
        let leaves =
            ["signup", "purchase", "signup.count >= 2", "purchase.sum > 4.99", "purchase.sum <= 20", "hours < 30"]
            + (0..<flag).map { "f\($0)" }
        guard depth > 0, Int.random(in: 0..<3, using: &generator) > 0 else {
            return leaves.randomElement(using: &generator)!
        }
        let part = { (generator: inout SplitMix64) in condition(&generator, depth: depth - 1, flag: flag) }
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: return "not (\(part(&generator)))"
        case 1: return "(\(part(&generator)) and \(part(&generator)))"
        case 2: return "(\(part(&generator)) or \(part(&generator)) or \(part(&generator)))"
        default: return "(\(part(&generator)) and (\(part(&generator)) or not \(part(&generator))))"
        }
    }

    @Test(arguments: 0..<40)
    func randomNestedConditionsAgreeWithTheReference(_ seed: Int) throws {
        var generator = SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9)
        var text = "schema Nested\nversion 1\n\nevent signup\nevent purchase value USD\n\n"
        for flag in 0..<4 {
            text += "flag f\(flag) at bit \(flag) when \(Self.condition(&generator, depth: 3, flag: flag))\n"
        }
        text += "\ncoarse windows 1...3 {\n"
        text += "  high when \(Self.condition(&generator, depth: 3, flag: 4))\n"
        text += "  nothing when \(Self.condition(&generator, depth: 2, flag: 4))\n"
        text += "  low otherwise\n}\n\nlock windows 1...3 when \(Self.condition(&generator, depth: 3, flag: 4))\n"
        let result = SchemaCompiler.compile(text, path: "Nested.skan")
        let schema = try #require(result.schema, "\(text)\n\(result.diagnostics)")
        Self.compareOnRandomJourney(schema, seed: UInt64(seed), "seed \(seed)")
    }
}
