import Foundation
import SkanCompiler
import SkanCore
import SkanPlatforms
import SkanTestSupport
import Testing

/// `skanc import ga4` takes every configuration of the size GA4 allows (128 conversion values a window, three
/// event mappings each), and where a schema cannot hold what an entry asks for, says so at that entry's key path.
@Suite struct GA4ImportLimitsTests {
    /// A GA4 schema's JSON: window one's entries, each with its fine value, coarse value, lock and mappings.
    static func json(_ entries: [(fine: Int, coarse: String, lock: Bool, mappings: [String])]) -> String {
        let values = entries.map { entry in
            """
            {"fineValue": \(entry.fine), "coarseValue": "COARSE_VALUE_\(entry.coarse)", "lockEnabled": \(entry.lock), \
            "eventMappings": [\(entry.mappings.joined(separator: ", "))]}
            """
        }
        return #"{"postbackWindowOne": {"conversionValues": ["# + values.joined(separator: ", ")
            + #"], "postbackWindowSettingsEnabled": true}}"#
    }

    static func source(_ json: String) throws -> GA4Schema {
        try GA4Schema.read(Array(json.utf8))
    }

    /// Random configurations: `count` entries of `mappings` count and value bounds over a few events, fine values
    /// interleaved (so no first-match order of cases follows the entries), coarse values and locks at random.
    static func randomConfiguration(entries count: Int, mappings: Int, seed: Int) -> String {
        var generator = SplitMix64(seed: UInt64(seed) &* 0x51ED &+ UInt64(count))
        let events = ["open", "level", "buy", "ad", "share"]
        let entries = (0..<count).map { _ in
            let chosen = events.shuffled(using: &generator).prefix(mappings)
            let mappings = chosen.map { event in
                let count = Int.random(in: 1...6, using: &generator)
                let value =
                    Bool.random(using: &generator)
                    ? #", "minEventValue": \#(Int.random(in: 1...60, using: &generator)).5"# : ""
                return #"{"eventName": "\#(event)", "minEventCount": "\#(count)"\#(value)}"#
            }
            return (
                fine: [1, 5, 9, 17, 33, 63].randomElement(using: &generator)!,
                coarse: ["LOW", "MEDIUM", "HIGH"].randomElement(using: &generator)!,
                lock: Int.random(in: 0..<5, using: &generator) == 0, mappings: mappings
            )
        }
        return json(entries)
    }

    /// 24 entries of two count mappings once needed 66 terms in a condition; GA4's own limit, 128 entries of
    /// three, thousands.
    @Test(arguments: [(24, 2), (64, 2), (128, 3)], 0..<3)
    func configurationsOfGA4sSizeImportAndMeanWhatGA4Computes(_ size: (Int, Int), _ seed: Int) throws {
        let source = try Self.source(Self.randomConfiguration(entries: size.0, mappings: size.1, seed: seed))
        let imported = GA4Import(source, name: "Sized", currency: "USD", file: "t.json")
        #expect(imported.diagnostics.isEmpty)
        let compiled = imported.imported.compile()
        #expect(compiled.errors.isEmpty, "\(compiled.errors.map(\.message))")
        let schema = try #require(compiled.schema)
        for run in 0..<4 { GA4ImportTests.agree(schema, source, seed: seed * 4 + run, context: "\(size)") }
    }

    /// Google requires one to three event mappings "if the postback window is enabled": an entry without any is
    /// an error in window one and in an enabled window, and is read in a window whose settings are off.
    @Test func anEntryWithoutMappingsIsAnErrorOnlyInAnEnabledWindow() throws {
        let entry = #"{"coarseValue": "COARSE_VALUE_LOW", "eventMappings": []}"#
        func read(enabled: Bool) -> [String] {
            let json =
                #"{"postbackWindowOne": {"conversionValues": [{"fineValue": 1, "coarseValue": "COARSE_VALUE_LOW", "#
                + #""eventMappings": [{"eventName": "buy", "minEventCount": "1"}]}], "postbackWindowSettingsEnabled": true}, "#
                + #""postbackWindowTwo": {"conversionValues": [\#(entry)], "postbackWindowSettingsEnabled": \#(enabled)}}"#
            do {
                _ = try GA4Schema.read(Array(json.utf8))
                return []
            } catch {
                return error.diagnostics.compactMap(\.subject)
            }
        }
        #expect(read(enabled: false) == [])
        #expect(read(enabled: true) == ["postbackWindowTwo.conversionValues[0].eventMappings"])
    }

    @Test func numbersInExponentFormAreWrittenOut() throws {
        let source = try Self.source(
            Self.json([
                (1, "LOW", false, [#"{"eventName": "buy", "minEventValue": 1e-06, "maxEventValue": 1e+14}"#])
            ]))
        let text = GA4Import(source, name: "Tiny", currency: "USD", file: "t.json").text
        #expect(text.contains("buy.sum >= 0.000001 and buy.sum <= 100000000000000"), "\(text)")
        #expect(GA4Import(source, name: "Tiny", currency: "USD", file: "t.json").imported.compile().schema != nil)
    }

    /// What a schema cannot hold is an error at the entry, never at a line of `<imported>`.
    @Test func whatASchemaCannotHoldIsReportedAtTheEntry() throws {
        let huge = try Self.source(
            Self.json([
                (1, "LOW", false, [#"{"eventName": "buy", "minEventValue": 1e+20}"#]),
                (2, "LOW", false, [#"{"eventName": "buy", "maxEventValue": -5}"#]),
            ]))
        let subjects = GA4Import(huge, name: "Huge", currency: "USD", file: "t.json").diagnostics.map(\.subject)
        #expect(
            subjects == [
                "postbackWindowOne.conversionValues[0].eventMappings[0].minEventValue",
                "postbackWindowOne.conversionValues[1].eventMappings[0].maxEventValue",
            ])

        let longName = String(repeating: "x", count: 70_000)
        let named = try Self.source(
            #"{"postbackWindowOne": {"conversionValues": [{"displayName": "\#(longName)", "fineValue": 3, "#
                + #""coarseValue": "COARSE_VALUE_HIGH", "eventMappings": [{"eventName": "buy", "minEventCount": "1"}]}, "#
                + #"{"fineValue": 4, "coarseValue": "COARSE_VALUE_LOW", "eventMappings": [{"eventName": "conversionValue", "minEventCount": "1"}]}"#
                + #"], "postbackWindowSettingsEnabled": true}}"#)
        let imported = GA4Import(named, name: "Named", currency: "USD", file: "t.json")
        let errors = imported.imported.compile().errors
        // The display name is over a schema's 64 KiB strings; the event named as the fine field is no error: the
        // field takes another name (`conversionValue_`).
        #expect(errors.map(\.subject) == ["postbackWindowOne.conversionValues[0]"], "\(errors)")
        #expect(errors.allSatisfy { $0.location == nil && $0.code == .importJSON })
    }

    @Test func anEventNamedAsTheFineFieldIsImported() throws {
        let source = try Self.source(
            Self.json([
                (3, "HIGH", true, [#"{"eventName": "conversionValue", "minEventCount": "2"}"#]),
                (1, "LOW", false, [#"{"eventName": "buy", "minEventCount": "1"}"#]),
            ]))
        let imported = GA4Import(source, name: "Clash", currency: "USD", file: "t.json")
        #expect(imported.text.contains("field conversionValue_ at bits 0...5"))
        let schema = try #require(imported.imported.compile().schema)
        for seed in 0..<4 { GA4ImportTests.agree(schema, source, seed: seed, context: "clash") }
    }
}
