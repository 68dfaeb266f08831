import Foundation
import SkanCompiler
import SkanCore
import SkanPlatforms
import SkanSchema
import SkanTestSupport
import Testing

/// `skanc import ga4`: the imported schema means what GA4 computes from the source (GA4's first match, in
/// Swift, `GA4Schema.selected`), on random activities; export then import then export keeps every window's
/// values; and the reading is strict.
@Suite struct GA4ImportTests {
    static func imported(_ source: GA4Schema) throws -> Schema {
        let text = GA4Import(source, name: "Imported", currency: "USD", file: "test").text
        let result = SchemaCompiler.compile(text)
        #expect(!result.diagnostics.hasErrors, "\(result.diagnostics)\n\(text)")
        return try #require(result.schema, "\(text)")
    }

    static func fixture(_ name: String) throws -> GA4Schema {
        let url = Paths.packageRoot.appendingPathComponent("Tests/SkanPlatformsTests/Fixtures/\(name)")
        return try GA4Schema.read([UInt8](try Data(contentsOf: url)))
    }

    /// The sources: the hand-written fixture (priorities, a fine value twice, fine value 0 in the middle, locks
    /// that do not follow the fine value, window three inheriting window one) and every exact export.
    static func sources() throws -> [(String, GA4Schema)] {
        var sources = [("ga4-priorities.json", try fixture("ga4-priorities.json"))]
        for path in FirstMatchListTests.exactSchemas {
            let json = SchemaExport(schema: try ShippedSchemas.compile(path), format: .ga4, options: .init()).text
            sources.append((path, try GA4Schema.read(Array(json.utf8))))
        }
        return sources
    }

    /// The schema's values agree with GA4's on random activities whose events are the source's, with amounts
    /// on and just below every bound it names.
    static func agree(_ schema: Schema, _ source: GA4Schema, seed: Int, context: String) {
        var amounts: Set<Double> = [0, 0.5, 250]
        for window in ConversionWindow.allCases {
            for value in source.conversionValues(in: window) {
                for mapping in value.eventMappings {
                    for bound in [mapping.minEventValue, mapping.maxEventValue].compactMap({ $0 }) {
                        amounts.formUnion([bound, max(0, bound - 0.01), bound + 0.01])
                    }
                }
            }
        }
        // In order: a set's order changes from process to process, and the same seed must draw the same amounts.
        let choices = amounts.sorted()
        var generator = SplitMix64(seed: UInt64(seed) &+ 0x6A41)
        var activity = Activity()
        var hour = 0.0
        for _ in 0..<70 {
            hour += [0, 0.5, 6, 30].randomElement(using: &generator)!
            if !schema.events.isEmpty {
                let event = Int.random(in: 0..<schema.events.count, using: &generator)
                let amount = schema.events[event].hasValue ? choices.randomElement(using: &generator)! : nil
                activity.events.append(LoggedEvent(event: event, hour: hour, amount: amount))
            }
            let mine = schema.evaluate(activity, at: hour)
            guard let window = mine.window else { break }
            let logged = activity.events
            let chosen = source.selected(
                in: window,
                count: { name in Double(logged.filter { schema.events[$0.event].name == name }.count) },
                sum: { name in
                    logged.filter { schema.events[$0.event].name == name }.reduce(0) { $0 + ($1.amount ?? 0) }
                })
            if window == .first { #expect(mine.fineValue == chosen?.fineValue ?? 0, "\(context) at \(hour)") }
            // Where no entry holds, GA4 sends nothing: the schema's state sends no update.
            #expect(mine.sends == (chosen != nil), "\(context) at \(hour), window \(window.number)")
            #expect(mine.coarseValue == chosen?.coarseValue, "\(context) at \(hour), window \(window.number)")
            #expect(mine.lock == chosen?.lockEnabled ?? false, "\(context) at \(hour), window \(window.number)")
        }
    }

    @Test(arguments: 0..<10)
    func theImportedSchemaMeansWhatGA4Computes(_ seed: Int) throws {
        for (name, source) in try Self.sources() {
            Self.agree(try Self.imported(source), source, seed: seed, context: name)
        }
    }

    @Test(arguments: 0..<10)
    func exportingTheImportAgainGivesTheSameValues(_ seed: Int) throws {
        for (name, source) in try Self.sources() {
            let schema = try Self.imported(source)
            let export = SchemaExport(schema: schema, format: .ga4, options: .init())
            #expect(export.losses.isEmpty || name == "ga4-priorities.json", "\(name): \(export.losses)")
            guard export.losses.isEmpty else { continue }
            Self.agree(schema, try GA4Schema.read(Array(export.text.utf8)), seed: seed, context: "\(name), again")
        }
    }

    /// Every input the `ga4` fuzz target ever failed on (and the seeds kept there) reads or is refused, and its
    /// import, when it compiles, means what GA4 computes.
    @Test func fuzzRegressionsStayFixed() throws {
        let directory = Paths.packageRoot.appendingPathComponent("Fuzz/Regressions/ga4")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix(".") }
        #expect(!files.isEmpty)
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent(file)))
            guard let source = try? GA4Schema.read(bytes) else { continue }
            let schema = try Self.imported(source)
            for seed in 0..<4 { Self.agree(schema, source, seed: seed, context: file) }
        }
    }

    @Test func theFixtureReadsAsWritten() throws {
        let source = try Self.fixture("ga4-priorities.json")
        #expect(source.conversionValues(in: .first).map(\.fineValue) == [40, 0, 30, 20, 40, 2])
        // Window three inherits from window two, which is set.
        #expect(source.conversionValues(in: .third) == source.conversionValues(in: .second))
        #expect(source.conversionValues(in: .second).map(\.lockEnabled) == [true, false, true])
        #expect(source.applyConversionValues)
        let spender = source.conversionValues(in: .first)[3].eventMappings
        #expect(spender[0].minEventValue == 1 && spender[0].maxEventValue == 19.99 && spender[1].minEventCount == 2)
    }

    /// What Google's library reads (proto3 JSON: a double as a string, an enum by number; a disabled later window
    /// that keeps its entries, which "are retained in case they may be used in the future") is read; what the
    /// API forbids (window one turned off: "This must always be true for postback_window_one") is not.
    @Test func readsWhatGooglesLibraryReadsAndRefusesWhatTheAPIForbids() throws {
        let json = #"""
            {"postbackWindowOne": {"postbackWindowSettingsEnabled": ENABLED, "conversionValues": [{"fineValue": "2",
              "coarseValue": 2, "eventMappings": [{"eventName": "purchase", "minEventValue": "9.99"}]}]},
             "postbackWindowThree": {"postbackWindowSettingsEnabled": false, "conversionValues": [
              {"coarseValue": "COARSE_VALUE_HIGH", "eventMappings": [{"eventName": "purchase", "minEventCount": "1"}]}]}}
            """#
        let source = try GA4Schema.read(Array(json.replacingOccurrences(of: "ENABLED", with: "true").utf8))
        let first = try #require(source.conversionValues(in: .first).first)
        #expect(first.coarseValue == .medium && first.eventMappings.first?.minEventValue == 9.99)
        // The disabled window three reads window one's entries.
        #expect(source.conversionValues(in: .third) == source.conversionValues(in: .first))
        #expect(throws: ConfigurationReadError.self) {
            try GA4Schema.read(Array(json.replacingOccurrences(of: "ENABLED", with: "false").utf8))
        }
        for bad in [#""minEventValue": "Infinity""#, #""minEventValue": "0x10""#, #""minEventValue": "nan""#] {
            let text = json.replacingOccurrences(of: "ENABLED", with: "true").replacingOccurrences(
                of: #""minEventValue": "9.99""#, with: bad)
            #expect(throws: ConfigurationReadError.self, "\(bad)") { try GA4Schema.read(Array(text.utf8)) }
        }
    }

    @Test func readingIsStrictAndSaysWhere() {
        func problems(_ json: String) -> [String] {
            do {
                _ = try GA4Schema.read(Array(json.utf8))
                return []
            } catch {
                return error.diagnostics.map { "\($0.subject ?? ""): \($0.message)" }
            }
        }
        let window = #"{"postbackWindowOne": {"conversionValues": [VALUE]}}"#
        func value(_ text: String) -> String { window.replacingOccurrences(of: "VALUE", with: text) }
        #expect(problems("[]") == ["the schema: expected an object"])
        #expect(problems("{") == [": not JSON: expected a key in quotes"])
        #expect(
            problems(
                value(
                    #"{"fineValue": 1, "coarseValue": "COARSE_VALUE_LOW", "eventMappings": [{"eventName": "a", "minEventCount": "1"}], "extra": 1}"#
                ))
                == [
                    "postbackWindowOne.conversionValues[0]: 'extra' is not a field of the resource here; it has displayName, fineValue, coarseValue, eventMappings, lockEnabled"
                ])
        #expect(
            problems(value(#"{"fineValue": 64, "coarseValue": "HIGH", "eventMappings": [{"eventName": "a"}]}"#))
                == [
                    "postbackWindowOne.conversionValues[0].fineValue: 64 is outside 0...63",
                    "postbackWindowOne.conversionValues[0].coarseValue: 'HIGH' is not one of COARSE_VALUE_HIGH, COARSE_VALUE_LOW, COARSE_VALUE_MEDIUM",
                    "postbackWindowOne.conversionValues[0].eventMappings[0]: an event mapping sets at least one of minEventCount, maxEventCount, minEventValue, maxEventValue",
                ])
        #expect(
            problems(
                value(
                    #"{"coarseValue": "COARSE_VALUE_LOW", "eventMappings": [{"eventName": "a", "minEventCount": "x"}]}"#
                ))
                == [
                    "postbackWindowOne.conversionValues[0].eventMappings[0].minEventCount: expected a whole number",
                    "postbackWindowOne.conversionValues[0]: 'fineValue' is required",
                ])
    }
}
