import Foundation
import SkanCompiler
import SkanCore
import SkanPlatforms
import SkanSchema
import SkanTestSupport
import Testing

/// `export --format branch`: Branch's own example and every export keep the spec's shape; the exact fixture
/// matches its golden; on random journeys each value the app sends lists an event that holds; what one event
/// and one whole-number revenue range cannot say is refused where it is.
@Suite struct BranchMappingExportTests {
    static let fixture = "Tests/SkanPlatformsTests/Fixtures/BranchExact.skan"
    static let updated = "2026-12-04 09:30:00.000"
    static let example = "Tests/SkanPlatformsTests/Fixtures/branch/partner-api-example.json"

    static func export(_ schema: Schema) -> SchemaExport {
        SchemaExport(schema: schema, format: .branch, options: .init(appID: "1234567890", updated: updated))
    }

    @Test func branchsOwnExampleKeepsTheShapeAndABrokenOneDoesNot() throws {
        let text = try String(contentsOf: Paths.packageRoot.appendingPathComponent(Self.example), encoding: .utf8)
        let example = try #require(BranchMappingShape.parse(text))
        #expect(BranchMappingShape.problems(in: example) == [])
        // The checker can fail: each change below breaks one rule of the spec.
        let broken = [
            text.replacingOccurrences(of: "\"between\",\n", with: "\"gt\",\n"),
            text.replacingOccurrences(of: "\"conversion-value\": \"3\"", with: "\"conversion-value\": \"64\""),
            text.replacingOccurrences(of: "\"locked\": false", with: "\"locked\": \"no\""),
            text.replacingOccurrences(of: "2023-09-26 16:04:34.607", with: "2023-09-26T16:04:34Z"),
        ]
        for changed in broken {
            #expect(changed != text, "the change applies to the example")
            #expect(BranchMappingShape.problems(in: try #require(BranchMappingShape.parse(changed))) != [])
        }
    }

    @Test func theExactFixtureMatchesItsGoldenAndTheShape() throws {
        let export = Self.export(try ShippedSchemas.compile(Self.fixture))
        #expect(export.losses.isEmpty, "\(export.losses)")
        #expect(BranchMappingShape.problems(in: try #require(BranchMappingShape.parse(export.text))) == [])
        try expectGolden(export.text, at: "Tests/SkanPlatformsTests/Goldens/BranchExact.branch.json")
    }

    /// Even a refused schema's lossy document keeps the shape.
    @Test(arguments: ShippedSchemas.all)
    func everyExportKeepsTheShape(_ path: String) throws {
        let export = Self.export(try ShippedSchemas.compile(path))
        #expect(BranchMappingShape.problems(in: try #require(BranchMappingShape.parse(export.text))) == [], "\(path)")
        #expect(export.losses.isEmpty == export.diagnostics(lossy: false).allSatisfy { $0.severity != .error })
    }

    /// On random journeys, each value the app sends (until its window locks) is listed, and one of its events
    /// holds on what was logged: the event was logged and its revenue is within the range.
    @Test(arguments: 0..<16)
    func eachValueSentListsAnEventThatHolds(_ seed: Int) throws {
        let schema = try ShippedSchemas.compile(Self.fixture)
        let document = try #require(BranchMappingShape.parse(Self.export(schema).text))
        var generator = SplitMix64(seed: UInt64(seed) &* 104_729 &+ 17)
        var activity = Activity()
        var hour = 0.0
        var locked: Set<ConversionWindow> = []
        var checked = 0
        for _ in 0..<40 {
            hour += [0, 0.5, 4, 30].randomElement(using: &generator)!
            let event = Int.random(in: 0..<schema.events.count, using: &generator)
            let amount =
                schema.events[event].hasValue ? [0.5, 1, 5, 9, 9.5, 10, 400].randomElement(using: &generator)! : nil
            activity.events.append(LoggedEvent(event: event, hour: hour, amount: amount))
            let expected = schema.evaluate(activity, at: hour)
            guard let window = expected.window else { break }
            guard expected.sends, !locked.contains(window) else { continue }
            if expected.lock { locked.insert(window) }
            let key = "postback-sequence-index-\(window.number - 1)"
            var values = [expected.coarseValue?.rawValue].compactMap { $0 }
            if window == .first { values.append(String(expected.fineValue)) }
            for value in values {
                let events = try #require(Self.events(of: value, in: key, document), "\(value) in \(key)")
                checked += 1
                #expect(
                    events.contains { Self.holds($0, schema: schema, activity: activity) },
                    "\(value) in \(key) at hour \(hour)")
            }
        }
        #expect(checked > 0)
    }

    @Test func whatBranchCannotSayIsRefusedWhereItIs() throws {
        func codes(_ conditions: String, coarse: String = "low otherwise") throws -> [String] {
            let schema = try FirstMatchListTests.compile(
                """
                schema S
                version 1
                event purchase value USD
                event level_up
                field f at bits 0...1 "F" {
                  a = 1 when \(conditions)
                  z = 0 otherwise
                }
                reserved bits 2...5
                coarse { \(coarse) }
                """)
            return Self.export(schema).diagnostics(lossy: false).filter { $0.severity == .error }.map(\.code.rawValue)
        }
        #expect(try codes("purchase.count >= 5") == ["export-shape"])
        #expect(try codes("purchase.sum >= 5") == ["export-bound"])
        #expect(try codes("purchase.sum >= 0.99 and purchase.sum <= 5") == ["export-bound"])
        #expect(try codes("purchase and level_up") == ["export-limit"])
        #expect(try codes("purchase.sum >= 1 and purchase.sum <= 5") == [])
        #expect(try codes("level_up") == [])
        let message = Self.export(
            try FirstMatchListTests.compile(
                "schema S\nversion 1\nevent level_up\nfield f at bits 0...1 \"F\" {\n  a = 1 when level_up.count >= 3\n  z = 0 otherwise\n}\nreserved bits 2...5\ncoarse { low otherwise }\n"
            )
        ).diagnostics(lossy: false).first
        #expect(message?.location?.line == 3, "at the event")
        #expect(message?.message.contains("'level_up.count >= 3' cannot be written (fine value 1; window 1)") == true)
    }

    @Test func updateTimesAreBranchsForm() {
        #expect(SchemaExport.Options.branchUpdateTime(unixSeconds: 1_796_369_753) == "2026-12-04 07:35:53.000")
        #expect(SchemaExport.Options.isBranchUpdateTime("2023-09-26 16:04:34.607"))
        for bad in ["2023-09-26T16:04:34.607", "2023-13-26 16:04:34.607", "2023-09-26 24:00:00.000", "", "2023-9-26"] {
            #expect(!SchemaExport.Options.isBranchUpdateTime(bad), "\(bad)")
        }
    }

    /// The conversion events listed for `value` under `key`.
    static func events(of value: String, in key: String, _ document: JSONDocument) -> [JSONDocument]? {
        guard case .array(let values)? = document["mapping"]?[key] else { return nil }
        for entry in values {
            if case .string(value)? = entry["conversion-value"], case .array(let events)? = entry["conversion-event"] {
                return events
            }
        }
        return nil
    }

    /// Whether a conversion event holds on `activity`: the install always; an event when logged, with its
    /// revenue (the sum, as the schema keeps it) between the ends, both included.
    static func holds(_ event: JSONDocument, schema: Schema, activity: Activity) -> Bool {
        guard case .array(let name)? = event["values"]?["name"], case .string(let eventName) = name[1] else {
            return false
        }
        if eventName == "MOBILE_APP_INSTALL" { return true }
        guard let index = schema.events.firstIndex(where: { $0.name == eventName }) else { return false }
        let logged = activity.events.filter { $0.event == index }
        guard !logged.isEmpty else { return false }
        guard case .array(let range)? = event["values"]?["event_data.revenue"] else { return true }
        guard case .number(let low) = range[1], case .number(let high) = range[2] else { return false }
        let sum = logged.reduce(0) { $0 + ($1.amount ?? 0) }
        return low <= sum && sum <= high
    }
}
