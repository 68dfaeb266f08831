import Foundation
import SkanSchema
import SkanTestSupport
import Testing

/// Schemas over the air, end to end against truth: `skanc simulate --schedule` runs installs and
/// re-engagements while v3 is live, v4 goes to 10% on day 3 and 100% on day 5, and v3 comes back on day 6, with
/// devices offline at random; `skanc publish` publishes the same steps; `skanc postbacks --schemas` decodes the
/// postbacks with every published version. Every postback with a fine value decodes with the version that set
/// it, and the counts per version and per field's case are the truth's exactly.
@Suite struct ScheduledRolloutTests {
    static let app = "525463029"
    static let versions = [
        3: ("Schemas/Shop.skan", "v3.skan"), 4: ("Tests/SkanCompilerTests/Fixtures/ShopMarked.skan", "v4.skan"),
    ]
    static let schedule = """
        {"day": 0, "publish": "v3.skan"}
        {"day": 3, "publish": "v4.skan", "rollout": 10}
        {"day": 5, "rollout": 100}
        {"day": 6, "rollback": true}

        """
    static let journey = """
        {"hour": 0.5, "set": {"registered": "true"}}
        {"hour": 2, "set": {"dayOneAction": "ordered"}}
        {"hour": 30, "set": {"paymentTier": "medium"}}
        {"hour": 60, "set": {"paymentTier": "high"}}
        {"hour": 200}

        """

    /// The scratch folder with the schedule, its schemas and the journey.
    static func scratch() throws -> (PublishCommandTests.Setup, URL) {
        let setup = try PublishCommandTests.Setup()
        let folder = setup.directory.url
        for (source, copy) in versions.values {
            try FileManager.default.copyItem(
                at: Paths.packageRoot.appendingPathComponent(source), to: folder.appendingPathComponent(copy))
        }
        try schedule.write(to: folder.appendingPathComponent("schedule.jsonl"), atomically: true, encoding: .utf8)
        try journey.write(to: folder.appendingPathComponent("journey.jsonl"), atomically: true, encoding: .utf8)
        return (setup, folder)
    }

    @Test func everyPostbackDecodesWithTheVersionThatSetItsValues() throws {
        let (setup, folder) = try Self.scratch()
        let path = { (name: String) -> String in folder.appendingPathComponent(name).path }
        // The steps of the schedule, published as a team would.
        for step in [[path("v3.skan")], [path("v4.skan"), "--rollout", "10"], ["--rollout", "100"], ["--rollback"]] {
            let published = try setup.publish(step, app: Self.app)
            try #require(published.status == 0, "\(published.stderr)")
        }
        let made = try CLI.run([
            "simulate", path("v3.skan"), path("journey.jsonl"), "--postbacks", "--schedule", path("schedule.jsonl"),
            "--users", "3000", "--framework", "adattributionkit", "--tiers", "3:3,2:1", "--seed", "11", "--truth",
            path("truth.jsonl"), "--days", "9",
        ])
        try #require(made.status == 0, "\(made.stderr)")
        try made.stdout.write(to: folder.appendingPathComponent("postbacks.jsonl"), atomically: true, encoding: .utf8)
        let decoded = try CLI.run([
            "postbacks", "--schemas", setup.out + "/" + Self.app, path("postbacks.jsonl"), "--no-verify",
            "--format", "jsonl",
        ])
        try #require(decoded.status == 0, "\(decoded.stderr)")
        let rows = try JSONLines.objects(decoded.stdout)
        let truths = try JSONLines.objects(try String(contentsOfFile: path("truth.jsonl"), encoding: .utf8))
        try #require(rows.count == truths.count && rows.count > 3000)

        let schemas = try Self.versions.mapValues { try ShippedSchemas.compile($0.0) }
        let columns = ["registered", "payment_tier", "day_one_action"]
        var expected: [String: Int] = [:]
        var actual: [String: Int] = [:]
        var seen: [String: Int] = [:]
        for (row, truth) in zip(rows, truths) {
            #expect(row["status"] as? String == "ok")
            let version = try #require(truth["schema_version"] as? Int)
            let conversion = try #require(truth["conversion_type"] as? String)
            #expect(row["conversion_type"] as? String == conversion)
            seen["\(version) \(conversion)", default: 0] += 1
            guard let fine = truth["fine_value"] as? Int else {
                // A coarse value carries no version: it is never decoded by one.
                #expect(
                    row["schema_version"] is NSNull
                        && row["coarse_value"] as? String == truth["coarse_value"] as? String)
                continue
            }
            #expect(row["fine_value"] as? Int == fine)
            #expect(row["schema_version"] as? Int == version, "line \(truth["line"] ?? ""): another version decoded it")
            let schema = try #require(schemas[version])
            let state = try schema.decode(fineValue: fine).get()
            for (column, fieldCase) in zip(columns, schema.cases(of: state)) {
                expected["\(version) \(column) \(fieldCase?.name ?? "")", default: 0] += 1
                let shown = (row[column] as? String) ?? (row[column] as? Bool).map { $0 ? "true" : "false" } ?? ""
                actual["\(row["schema_version"] ?? "") \(column) \(shown)", default: 0] += 1
            }
        }
        #expect(actual == expected)
        // The rollout made both versions' installs and re-engagements; most used the live v3.
        for key in ["3 download", "3 re-engagement", "4 download", "4 re-engagement"] {
            #expect(seen[key, default: 0] > 0, "\(key): \(seen)")
        }
        #expect(seen["3 download", default: 0] > seen["4 download", default: 0])
    }

    @Test func aScheduleThePublishGateRefusesWritesNothing() throws {
        // The setup owns the folder: kept to the end of the test.
        let (setup, folder) = try Self.scratch()
        defer { withExtendedLifetime(setup) {} }
        let path = { (name: String) -> String in folder.appendingPathComponent(name).path }
        // Version 4 of ShopV4.skan shares fine values with the live v3: publishing refuses it, and so does this.
        try FileManager.default.copyItem(
            at: Paths.packageRoot.appendingPathComponent("Tests/SkanCompilerTests/Fixtures/ShopV4.skan"),
            to: folder.appendingPathComponent("overlap.skan"))
        try "{\"day\": 0, \"publish\": \"v3.skan\"}\n{\"day\": 2, \"publish\": \"overlap.skan\", \"rollout\": 5}\n"
            .write(to: folder.appendingPathComponent("bad.jsonl"), atomically: true, encoding: .utf8)
        let arguments = [
            "simulate", path("v3.skan"), path("journey.jsonl"), "--postbacks", "--truth", path("truth.jsonl"),
            "--schedule",
        ]
        let refused = try CLI.run(arguments + [path("bad.jsonl")])
        #expect(refused.status == 1 && refused.stdout.isEmpty, "\(refused.stderr)")
        #expect(refused.stderr.contains("bad.jsonl:2: 'skanc publish' refuses this step"), "\(refused.stderr)")
        #expect(refused.stderr.contains("overlap.skan:") && refused.stderr.contains("[version-overlap]"))
        #expect(!FileManager.default.fileExists(atPath: path("truth.jsonl")))

        try
            "{\"day\": 0, \"publish\": \"v3.skan\"}\n{\"day\": 2}\n{\"day\": 3, \"rollout\": 20}\n{\"day\": 1, \"rollback\": true}\n"
            .write(
                to: folder.appendingPathComponent("malformed.jsonl"), atomically: true, encoding: .utf8)
        let malformed = try CLI.run(arguments + [path("malformed.jsonl")])
        #expect(malformed.status == 1 && malformed.stdout.isEmpty)
        #expect(malformed.stderr.contains("malformed.jsonl:2:1: error: a step does one thing"), "\(malformed.stderr)")
        #expect(malformed.stderr.contains("malformed.jsonl:4:1: error: day 1 comes after day 3"), "\(malformed.stderr)")
        #expect(malformed.stderr.contains("[schedule-invalid]"))
    }
}
