import Foundation
import SkanCompiler
import SkanCore
import SkanSchema
import SkanTestSupport
import Testing

/// `nothing` in a coarse block: in the states it holds for, the app sends no update in the window (GA4's and
/// Meta's "no entry matched"). Quiet.skan sends nothing in window 1 before sign-up or spend, and in windows 2-3
/// below spend `mid`.
@Suite struct NothingRuleTests {
    @Test func everyStateSendsExactlyWhereNoNothingRuleHolds() throws {
        let schema = try compiledFixture("Quiet")
        for fine in Schema.fineValueRange {
            guard case .success(let state) = schema.decode(fineValue: fine) else { continue }
            let registered = state.codes[0] == 1
            let spend = state.codes[1]
            for (window, hour) in [(ConversionWindow.first, 1.0), (.second, 50), (.third, 200)] {
                let activity = Activity(setCodes: [0: state.codes[0], 1: spend])
                let evaluation = schema.evaluate(activity, at: hour)
                let sends = window == .first ? registered || spend > 0 : spend >= 2
                #expect(evaluation.sends == sends, "fine \(fine), window \(window.number)")
                #expect((evaluation.coarseValue != nil) == sends, "fine \(fine), window \(window.number)")
                // A lock goes with an update: spend high locks window 1, and it always sends.
                #expect(evaluation.lock == (window == .first && spend == 3), "fine \(fine), window \(window.number)")
                #expect(
                    schema.coarseHead(of: state, window: window)
                        == (sends ? evaluation.coarseValue?.rawValue : "nothing"))
            }
        }
    }

    @Test func aJourneySendsOnlyFromTheFirstStateThatSends() throws {
        let schema = try compiledFixture("Quiet")
        let journey = """
            {"hour": 1}
            {"hour": 2, "set": {"registered": "true"}}
            {"hour": 50}
            {"hour": 60, "set": {"spend": "mid"}}
            {"hour": 200}

            """
        let simulation = JourneySimulation(schema: schema, journey: Array(journey.utf8))
        #expect(simulation.diagnostics.isEmpty)
        #expect(simulation.steps.map(\.sent) == [false, true, false, true, true])
        #expect(simulation.steps.map(\.evaluation.coarseValue) == [nil, .low, nil, .high, .high])
        let table = simulation.text.split(separator: "\n").map(String.init)
        #expect(table[1].hasPrefix("1     1        1       0     nothing false  -"), "\(table[1])")
        #expect(
            simulation.jsonLines.split(separator: "\n").first?.contains(#""coarse_value":null,"sends":false"#) == true)
    }

    @Test func theRuleHeadIsReadAndWrittenBack() throws {
        let schema = try compiledFixture("Quiet")
        #expect(schema.rulesText(window: .second) == "high when spend >= mid; nothing otherwise")
        #expect(schema.ruleText(head: "nothing", window: .first) == "not registered and spend == none")
        let wrong = SchemaCompiler.compile(
            "schema A version 1 flag a at bit 0 reserved bits 1...5 coarse { silent otherwise }")
        #expect(
            wrong.diagnostics.first?.message.contains(
                "a coarse rule starting with 'low', 'medium', 'high' or 'nothing'")
                == true, "\(wrong.diagnostics)")
    }
}
