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
    /// program with the reference after each step: evaluated afresh, and brought up to date change by change
    /// (`update`, which derives again only what a change reaches).
    static func compareOnRandomJourney(_ schema: Schema, seed: UInt64, _ label: String) {
        var generator = SplitMix64(seed: seed)
        let program = ActivityProgram(schema: schema)
        var running = program.start
        var hour = 0.0
        var kept = program.evaluation(running, at: hour)
        let appSet = schema.fields.indices.filter { schema.fields[$0].derivation == nil }
        for _ in 0..<150 {
            // Steps from a quarter hour to days, some landing on the hours conditions and windows name.
            hour += [0, 0.25, 3, 12, 23.5, 24, 48, 200].randomElement(using: &generator)!
            var changed = false
            if !schema.events.isEmpty, Bool.random(using: &generator) {
                let event = Int.random(in: 0..<schema.events.count, using: &generator)
                let amount =
                    schema.events[event].hasValue
                    ? [0, 0.99, 4.99, 20, 120, 0.005].randomElement(using: &generator)! : nil
                running.log(LoggedEvent(event: event, hour: hour, amount: amount))
                program.update(&kept, running, at: hour, after: .logged(event: event))
                changed = true
            }
            if let field = appSet.randomElement(using: &generator), Int.random(in: 0..<4, using: &generator) == 0 {
                running.set(field: field, code: schema.fields[field].cases.randomElement(using: &generator)!.code)
                program.update(&kept, running, at: hour, after: .set(field: field))
                changed = true
            }
            if !changed { program.update(&kept, running, at: hour, after: .time) }
            expectSame(kept.answer, running.evaluate(at: hour), "\(label) updated at \(hour)")
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

    /// A model read from an artifact is not held to the six bits' budget of fields (its reader checks each
    /// field's bits, not their sum): past six fields the program keeps their codes in a buffer of its own rather
    /// than the tuple, and redoes every evaluation rather than updating it, and still agrees with the reference.
    @Test(arguments: 0..<4)
    func moreThanSixFieldsAgreeWithTheReference(_ seed: Int) throws {
        var generator = SplitMix64(seed: UInt64(seed) &+ 0x5EED)
        var text = "schema Wide\nversion 1\n\nevent signup\nevent purchase value USD\n\n"
        for flag in 0..<6 {
            text += "flag f\(flag) at bit \(flag) when \(Self.condition(&generator, depth: 2, flag: flag))\n"
        }
        text += "\ncoarse windows 1...3 {\n  high when f5\n  low otherwise\n}\n"
        let result = SchemaCompiler.compile(text, path: "Wide.skan")
        var schema = try #require(result.schema, "\(text)\n\(result.diagnostics)")
        // Two fields more, copies of the first two under other names, on the same bits.
        schema.fields += schema.fields.prefix(2).map { field in
            var copy = field
            copy.name += "_again"
            return copy
        }
        #expect(schema.fields.count == 8)
        Self.compareOnRandomJourney(schema, seed: UInt64(seed), "wide seed \(seed)")
    }
}

/// `ActivityProgram.event(named:)`, the lookup behind every event an app logs by name: names of one length are
/// told apart by their bytes, and a name of no event's length, longer than every name, or empty finds nothing.
@Suite struct ActivityProgramEventNameTests {
    @Test func everyShippedSchemasEventIsFoundAtItsIndex() throws {
        for path in ShippedSchemas.all {
            let schema = try ShippedSchemas.compile(path)
            let program = ActivityProgram(schema: schema)
            for (index, event) in schema.events.enumerated() {
                let found = program.event(named: event.name)
                #expect(found?.index == index && found?.hasValue == event.hasValue, "\(path): \(event.name)")
                #expect(program.event(named: event.name + "_") == nil, "\(path): \(event.name)_")
            }
        }
    }

    @Test func namesOfOneLengthAreToldApartByTheirBytes() throws {
        let text = """
            schema Names
            version 1

            event buy
            event tap
            event purchase value USD
            event sell

            flag bought at bit 0 when buy or tap or purchase or sell

            coarse windows 1...3 {
              low otherwise
            }
            """
        let result = SchemaCompiler.compile(text, path: "Names.skan")
        let program = ActivityProgram(schema: try #require(result.schema, "\(result.diagnostics)"))
        #expect(program.event(named: "buy")?.index == 0)
        #expect(program.event(named: "tap")?.index == 1)
        #expect(program.event(named: "purchase")?.index == 2)
        #expect(program.event(named: "purchase")?.hasValue == true)
        #expect(program.event(named: "sell")?.index == 3)
        for unknown in [
            "bux", "Buy", "", "b", "purchases", "purchasf", "sel", "sell ", "séll", String(repeating: "x", count: 99),
        ] {
            #expect(program.event(named: unknown) == nil, "\(unknown)")
        }
    }
}
