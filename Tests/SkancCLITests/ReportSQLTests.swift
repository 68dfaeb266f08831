import Foundation
import SkanTestSupport
import Testing

/// `skanc sql --report` on the four real engines against `skanc report --format json --no-verify`
/// (Tests/Warehouse/report_parity.py): every count, tier, case, coarse value, revenue total and range, and every
/// row that is not ok, for simulated postbacks of both frameworks at a mix of tiers, Apple's examples, and the
/// hostile fixture (every status); also with other groupings, zero-is-null, and versions live together.
@Suite(.serialized) struct ReportSQLTests {
    /// The fixtures, written once into a temporary directory.
    static let files: [String] = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "skanc-report-sql-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var paths: [String] = []
        for framework in ["skadnetwork", "adattributionkit"] {
            let made = try! CLI.run([
                "simulate", "Schemas/Game.skan", "Tests/Fixtures/journeys/game.jsonl", "--postbacks", "--users", "300",
                "--campaigns", "5", "--tiers", "0:0.1,1:0.2,2:0.3,3:0.4", "--framework", framework, "--seed", "7",
            ])
            precondition(made.status == 0, made.stderr)
            let path = directory.appendingPathComponent("game-\(framework).jsonl").path
            // Apple's examples and a repeated postback join them: other versions, and rows that are not ok. Every
            // seventh AdAttributionKit postback becomes a re-engagement (bounded apart from the installs).
            let examples = try! String(contentsOfFile: "Tests/Fixtures/apple-examples.jsonl", encoding: .utf8)
            let lines = made.stdout.split(separator: "\n").enumerated().map { index, line in
                framework == "adattributionkit" && index % 7 == 3 ? Self.reengagement(String(line)) : String(line)
            }
            let first = lines.first.map { $0 + "\n" } ?? ""
            try! (lines.map { $0 + "\n" }.joined() + examples + first).write(
                toFile: path, atomically: true, encoding: .utf8)
            paths.append(path)
        }
        let hostile = directory.appendingPathComponent("hostile.jsonl").path
        let names = directory.appendingPathComponent("hostile.names").path
        let made = try! WarehouseSQLTests.python(["Tests/Warehouse/hostile_postbacks.py", hostile, names])
        precondition(made.status == 0, made.stderr)
        return paths + ["\(hostile):\(names)"]
    }()

    /// `line`, an AdAttributionKit postback of an install, as a re-engagement: its JWS payload's conversion type
    /// changed (the signature no longer holds; the reports read with `--no-verify`).
    static func reengagement(_ line: String) -> String {
        let parts = line.split(separator: "\"", omittingEmptySubsequences: false).map(String.init)
        guard parts.count > 3, parts[1] == "jws-string" else { return line }
        var segments = parts[3].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var base64 = segments[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        let payload = String(decoding: Data(base64Encoded: base64)!, as: UTF8.self).replacingOccurrences(
            of: #""conversion-type":"download""#, with: #""conversion-type":"re-engagement""#)
        segments[1] = Data(payload.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return ([parts[0], parts[1], parts[2], segments.joined(separator: ".")] + parts[4...]).joined(separator: "\"")
    }

    /// The first simulated file as `skanc serve` would have stored it: its receipt times beside it, a postback
    /// every 700 s from 2025-12-02 21:20 UTC (three days), the last lines without a time.
    static let received: String = {
        let source = files[0]
        let directory = URL(fileURLWithPath: source).deletingLastPathComponent()
        let path = directory.appendingPathComponent("received.jsonl").path
        let text = try! String(contentsOfFile: source, encoding: .utf8)
        try! text.write(toFile: path, atomically: true, encoding: .utf8)
        let count = text.split(separator: "\n").count
        let times = (0..<(count - 5)).map { String(1_764_710_400 + $0 * 700) + "\n" }.joined()
        try! times.write(
            toFile: directory.appendingPathComponent("received.times").path, atomically: true, encoding: .utf8)
        return path
    }()

    /// Spend for the simulated files' campaigns (their four-digit source identifiers, under the simulation's
    /// network) on the receipt days of `received`, with a row no postback matches.
    static let cost: String = {
        let text = try! String(contentsOfFile: files[0], encoding: .utf8)
        let pattern = try! NSRegularExpression(pattern: #""source-identifier":"([0-9]{4})""#)
        let range = NSRange(text.startIndex..., in: text)
        let campaigns = Set(
            pattern.matches(in: text, range: range).map { String(text[Range($0.range(at: 1), in: text)!]) })
        var csv = "network,campaign,day,spend,currency\r\n"
        for (index, campaign) in campaigns.sorted().enumerated() {
            csv += "example123.skadnetwork,\(campaign),2025-12-02,\(100 + index).25,USD\r\n"
            csv += "example123.skadnetwork,\(campaign),2025-12-04,0.5,USD\r\n"
        }
        csv += "elsewhere.skadnetwork,1234,2025-12-03,99,USD\r\n"
        let path = URL(fileURLWithPath: files[0]).deletingLastPathComponent().appendingPathComponent("cost.csv").path
        try! csv.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }()

    /// One run of report_parity.py: the schema, the report's options and the files.
    struct ParityRun {
        var schema = "Schemas/Game.skan"
        var options: [String] = []
        var files: [String] = ReportSQLTests.files

        /// The run's arguments to report_parity.py.
        var arguments: [String] { ["--schema", schema] + options + files }

        /// The run, its report views reading a table of the decoded rows (`--decoded-table`, as Spark and SQLite
        /// always do): DuckDB plans each view with the whole decoding inlined, seconds a view.
        var fromDecodedTable: ParityRun {
            var run = self
            run.options.append("--decoded-table")
            return run
        }
    }

    /// Runs report_parity.py on `engine`, every run in one invocation (the engine starts once), and expects every
    /// figure equal, with every file of each run compared.
    static func expectParity(_ engine: String, _ runs: [ParityRun]) throws {
        let arguments = WarehouseSQLTests.runArguments(runs.map(\.arguments))
        let result = try WarehouseSQLTests.python(
            ["Tests/Warehouse/report_parity.py", "--engine", engine, "--skanc", CLI.executable.path] + arguments)
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr.suffix(3000))")
        let outputs = WarehouseSQLTests.runOutputs(result.stdout)
        #expect(outputs.count == runs.count, "\(result.stdout)")
        for (run, output) in zip(runs, outputs) { expectRun(engine, run, output: output) }
    }

    /// The checks on one run's output.
    static func expectRun(_ engine: String, _ run: ParityRun, output: Substring) {
        let summaries = output.split(separator: "\n").filter { $0.hasPrefix("\(engine) ") }
        #expect(summaries.count == run.files.count, "\(output)")
        for summary in summaries { #expect(summary.contains(", 0 differ,"), "\(summary)") }
        if run.options.contains("--cost") {
            #expect(summaries.allSatisfy { !$0.hasSuffix(" 0 groups with cost") }, "\(output)")
        }
        // The AdAttributionKit file's re-engagements are bounded apart, and every file has a wide table.
        if run.files.contains(where: { $0.hasSuffix("adattributionkit.jsonl") }) {
            #expect(summaries.contains { !$0.contains(" 0 groups with re-engagements") }, "\(output)")
        }
        if run.options.contains(where: { $0.split(separator: ",").contains("day") }) {
            #expect(summaries.allSatisfy { $0.contains(" install days") && !$0.contains(" 0 install days") })
        }
        #expect(summaries.allSatisfy { !$0.contains(" 0 wide rows") }, "\(output)")
        // The simulated files have groups to compare; the hostile one has rows that are not ok.
        #expect(!summaries.contains { $0.contains(" 0 groups and 0 rows not ok") }, "\(output)")
    }

    @Test func duckdbReportsAsTheCLI() throws {
        try Self.expectParity(
            "duckdb",
            // The first run's views read the decoding view itself, as the CLI's SQL is written; the others read a
            // table of the decoded rows.
            [ParityRun()]
                + [
                    ParityRun(options: ["--by", "campaign,country_code,framework", "--zero-is-null"]),
                    ParityRun(options: ["--by", "ad_network_id,conversion_type,interaction,publisher,did_win"]),
                    // By the day the receiver got each postback (`received_at`, from the times beside the file).
                    ParityRun(options: ["--by", "day,campaign,did_win"], files: [Self.received]),
                    ParityRun(options: ["--by", "ad_network_id,source_identifier_2,source_identifier_3"]),
                    // Spend joined to the groups: rolled up to two digits, and by the day received.
                    ParityRun(
                        options: ["--by", "ad_network_id,source_identifier_2", "--cost", Self.cost],
                        files: Array(Self.files.prefix(2))),
                    ParityRun(
                        options: ["--by", "day,ad_network_id,campaign", "--cost", Self.cost], files: [Self.received]),
                    ParityRun(
                        schema: "Schemas/Shop.skan,Tests/SkanCompilerTests/Fixtures/ShopMarked.skan",
                        options: ["--by", "schema_version,app_id"], files: Array(Self.files.suffix(1))),
                ].map(\.fromDecodedTable))
    }

    @Test func sqliteReportsAsTheCLI() throws {
        try Self.expectParity(
            "sqlite",
            [
                ParityRun(),
                ParityRun(options: ["--by", "campaign,country_code", "--zero-is-null"]),
                ParityRun(options: ["--by", "day,campaign"], files: [Self.received]),
                // The campaign rollup: the source identifier's first two and three digits.
                ParityRun(options: ["--by", "source_identifier_2,source_identifier_3"]),
                ParityRun(
                    options: ["--by", "ad_network_id,campaign", "--cost", Self.cost], files: Array(Self.files.prefix(1))
                ),
            ])
    }

    @Test func postgresReportsAsTheCLI() throws {
        try Self.expectParity(
            "postgres",
            [
                ParityRun(options: ["--by", "campaign,framework"]),
                ParityRun(options: ["--by", "day,campaign"], files: [Self.received]),
                ParityRun(options: ["--by", "ad_network_id,source_identifier_2"]),
                ParityRun(
                    options: ["--by", "ad_network_id,source_identifier_3", "--cost", Self.cost],
                    files: Array(Self.files.prefix(1))),
            ])
    }

    /// Spark's runs: WarehouseSQLTests.sparkDecodesAndReportsAsTheCLI runs them after its decoding runs, in one
    /// Spark session.
    static let sparkRuns = [
        ParityRun(options: ["--by", "campaign,country_code"], files: Array(files.prefix(2))),
        ParityRun(options: ["--by", "day,campaign"], files: [received]),
        // The rollup and the spend.
        ParityRun(
            options: ["--by", "ad_network_id,source_identifier_2", "--cost", cost], files: Array(files.prefix(1))),
    ]
}
