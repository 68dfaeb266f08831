import Foundation
import SkanCompiler
import SkanCore
import SkanSchemaTools
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
            (#"{"hour": 1e400}"#, "not a JSON object: '1e400' is not a JSON number"),
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

/// `skanc diff` and `check --against` on schemas with events: a changed derivation or coarse rule on events
/// changes the meaning of fine values, so the version must go up.
@Suite struct EventBindingDiffTests {
    static func game(_ replacements: [(String, String)]) throws -> Schema {
        var text = try String(contentsOf: Paths.schemas.appendingPathComponent("Game.skan"), encoding: .utf8)
        for (old, new) in replacements {
            #expect(text.contains(old), "\(old)")
            text = text.replacingOccurrences(of: old, with: new)
        }
        return try #require(SchemaCompiler.compile(text).schema)
    }

    @Test func aChangedScopeOrCoarseRuleOnEventsChangesMeaning() throws {
        let old = try shippedSchema("Game")
        let new = try Self.game([
            ("within 48 hours", "within 24 hours"), ("purchase.count >= 2", "purchase.count >= 3"),
        ])
        let diff = SchemaDiff(old: old, new: new)
        #expect(diff.values.isEmpty)
        #expect(diff.changesMeaning)
        #expect(
            diff.bindings == [
                "`revenue` is now `buckets amount of purchase + ad_revenue within 24 hours`, was `buckets amount of purchase + ad_revenue within 48 hours`",
                "window 2's coarse rules on events and time are now `high when purchase.count >= 3; medium when level_complete.count >= 5; low otherwise`, were `high when purchase.count >= 2; medium when level_complete.count >= 5; low otherwise`",
                "window 3's coarse rules on events and time are now `high when purchase.count >= 3; medium when level_complete.count >= 5; low otherwise`, were `high when purchase.count >= 2; medium when level_complete.count >= 5; low otherwise`",
            ])
        #expect(diff.rendered(.json).contains("\"derived_from\""))
        // The same schema: nothing changes.
        #expect(!SchemaDiff(old: old, new: old).changesMeaning)
        // Schemas of bits alone keep their JSON shape.
        let shop = try shippedSchema("Shop")
        #expect(!SchemaDiff(old: shop, new: shop).rendered(.json).contains("derived_from"))
    }

    @Test func aFieldTheAppSetThatIsNowDerivedIsSaid() throws {
        let old = try Self.game([
            ("flag registered at bit 0 \"Signed up\" when sign_up", "flag registered at bit 0 \"Signed up\"")
        ])
        let diff = SchemaDiff(old: old, new: try shippedSchema("Game"))
        #expect(diff.bindings == ["`registered` is now derived: `when sign_up`; the app set it"])
    }
}
