import Foundation
import SkanCompiler
import SkanCore
import SkanSchema
import SkanTestSupport
import Testing

/// The journey reader and simulation as a library: every input in Fuzz/Regressions/journey (the `journey` fuzz
/// target's) gets a step or an error for each of its lines, and JSON edge cases are refused with a reason.
@Suite struct JourneySimulationTests {
    static func lineCount(_ bytes: [UInt8]) -> Int {
        bytes.split(separator: 0x0A, omittingEmptySubsequences: false).filter { line in
            let trimmed = line.drop { $0 == 0x20 || $0 == 0x09 }
            let content = trimmed.reversed().drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
            return !content.isEmpty && trimmed.first != UInt8(ascii: "#")
        }.count
    }

    @Test func everyRegressionInputGetsAStepOrAnErrorPerLine() throws {
        let schema = try shippedSchema("Game")
        let directory = Paths.packageRoot.appendingPathComponent("Fuzz/Regressions/journey")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix(".") }
        #expect(!files.isEmpty)
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent(file)))
            let simulation = JourneySimulation(schema: schema, journey: bytes)
            #expect(simulation.steps.count + simulation.diagnostics.count == Self.lineCount(bytes), "\(file)")
        }
    }

    @Test func jsonEdgeCasesAreRefusedWithAReason() throws {
        let schema = try shippedSchema("Game")
        for (line, message) in [
            (#"{"hour": 01}"#, "not a JSON object: '01' is not a JSON number"),
            (#"{"hour": 1e400}"#, "not a JSON object: '1e400' is beyond the range of a double (about 1.8e308)"),
            (#"{"hour": .5}"#, "not a JSON object: expected a value"),
            (#"{"hour": 1,}"#, "not a JSON object: expected a key in quotes"),
            (#"{"hour": 1} {"hour": 2}"#, "text after the object; one object per line"),
            (
                #"{"hour": 1, "set": {"a": {"b": {}}}}"#,
                "not a JSON object: objects nest at most two deep in a journey line"
            ),
            (#"{"hour": -1}"#, "\"hour\" is -1; hours count from 0 at first launch"),
            (#"{"hour": 1, "event": "sign_up", "hour": 2}"#, ""),
        ] {
            let simulation = JourneySimulation(schema: schema, journey: Array(line.utf8))
            #expect(simulation.diagnostics.first?.message ?? "" == message, "\(line)")
        }
        // The last of repeated keys wins, as `skanc postbacks` reads JSON.
        let repeated = JourneySimulation(schema: schema, journey: Array(#"{"hour": 1, "hour": 2}"#.utf8))
        #expect(repeated.steps.first?.hour == 2)
    }
}
