import Foundation
import SkanTestSupport
import Testing

/// `skanc sql` on the four real engines, row for row and column for column against `skanc postbacks
/// --no-verify` (Tests/Warehouse/warehouse_parity.py): the hostile fixture (every status and the JSON corner
/// cases, Tests/Warehouse/hostile_postbacks.py), Apple's examples and 20,000 lines of the benchmark generator.
/// Lines an engine cannot decode as skanc does are excluded by name, each printed with its reason
/// (docs/Warehouse.md).
/// .ci/run installs the engines: Python's duckdb and pyspark, Debian's sqlite3, PostgreSQL and OpenJDK.
@Suite(.serialized) struct WarehouseSQLTests {
    /// The fixtures, written once into a temporary directory.
    static let files: [String] = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "skanc-warehouse-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let hostile = directory.appendingPathComponent("hostile.jsonl").path
        let names = directory.appendingPathComponent("hostile.names").path
        let benchmark = directory.appendingPathComponent("benchmark.jsonl").path
        let made = try! python(["Tests/Warehouse/hostile_postbacks.py", hostile, names])
        precondition(made.status == 0, made.stderr)
        // 20,000 lines hold every kind of postback the generator makes (SKAN 3, each window and tier of SKAN 4,
        // AdAttributionKit) hundreds of times and every fine value; 200,000 took each engine minutes more and
        // tested nothing more. Benchmarks/warehouse.py runs the engines on 200,000.
        let generated = try! python(["Benchmarks/generate_postbacks.py", "20000"])
        precondition(generated.status == 0, generated.stderr)
        try! generated.stdout.write(toFile: benchmark, atomically: true, encoding: .utf8)
        // Receipt times as `skanc serve` keeps them beside a segment, with the edges a reader meets: the epoch,
        // a leap day, the last four-digit year, a time that is not one, and lines past the end of the times.
        let received = directory.appendingPathComponent("received.jsonl").path
        let receivedLines = generated.stdout.split(separator: "\n").prefix(40)
        try! (receivedLines.joined(separator: "\n") + "\n").write(toFile: received, atomically: true, encoding: .utf8)
        // Times that are not one (`abc`, `1e9`, `-5`...) are no time in every engine, as in the CLI: loaded as text.
        let edges = [
            "0", "951782400", "253402300799", "253402300800", "abc", "1764768600\r", "", "0123", "1e9", "-5", "NaN",
            "0x10", " 5",
        ]
        let times = edges + (0..<23).map { String(1_764_768_600 + $0 * 3_607) }
        try! (times.joined(separator: "\n") + "\n").write(
            toFile: directory.appendingPathComponent("received.times").path, atomically: true, encoding: .utf8)
        return ["\(hostile):\(names)", "Tests/Fixtures/apple-examples.jsonl", benchmark, received]
    }()

    static func python(_ arguments: [String]) throws -> CLIResult {
        try CLI.run(arguments, executable: URL(fileURLWithPath: "/usr/bin/env"), prefix: ["python3"])
    }

    /// One run of a parity script: the arguments that name the schemas (`--schema S` or `--schemas DIR`) and
    /// the files compared.
    struct ParityRun {
        var named: [String]
        var files: [String]

        /// The run of `schema` over `files`.
        static func schema(_ schema: String = "Schemas/Shop.skan", files: [String] = WarehouseSQLTests.files)
            -> ParityRun
        { ParityRun(named: ["--schema", schema], files: files) }
    }

    /// The arguments of several runs of a parity script, one engine for all: each run's, joined by `--then`.
    static func runArguments(_ runs: [[String]]) -> [String] {
        Array(runs.joined(separator: ["--then"]))
    }

    /// The output of each run of a parity script, which starts each with a line `== run: ...`.
    static func runOutputs(_ stdout: String) -> [Substring] {
        let marker = "== run: "
        return stdout.split(separator: "\n" + marker, omittingEmptySubsequences: false).enumerated().compactMap {
            index, piece in index == 0 ? (piece.hasPrefix(marker) ? piece : nil) : piece
        }
    }

    /// Runs the parity check on `engine`, every run in one invocation (the engine starts once), and expects every
    /// compared row equal, with every file of each run compared.
    static func expectParity(_ engine: String, _ runs: [ParityRun]) throws {
        let arguments = runArguments(runs.map { $0.named + $0.files })
        let result = try python(
            ["Tests/Warehouse/warehouse_parity.py", "--engine", engine, "--skanc", CLI.executable.path] + arguments)
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr.suffix(3000))")
        let outputs = runOutputs(result.stdout)
        #expect(outputs.count == runs.count, "\(result.stdout)")
        for (run, output) in zip(runs, outputs) { expectRun(engine, run, output: output) }
    }

    /// The checks on one run's output.
    static func expectRun(_ engine: String, _ run: ParityRun, output: Substring) {
        let summaries = output.split(separator: "\n").filter { $0.hasPrefix("\(engine) ") }
        #expect(summaries.count == run.files.count, "\(output)")
        for summary in summaries { #expect(summary.contains("(0 differ,"), "\(summary)") }
        #expect(output.contains("\(engine) benchmark.jsonl: 20000 rows equal") || run.files.count < 3, "\(output)")
        // The receipt times, read from the file beside the lines, as `received_at` in both.
        #expect(output.contains("\(engine) received.jsonl: 40 rows equal") || run.files.count < 4, "\(output)")
    }

    /// docs/Warehouse.md's recipe for a store of `skanc serve`, run as written: the lines of three segments with
    /// their receipt times, a postback re-sent in a later segment (the duplicate is the later one, as in the CLI).
    @Test func duckdbReadsAStoreWithItsReceiptTimes() throws {
        let directory = try TemporaryDirectory()
        let day = directory.url.appendingPathComponent("postbacks/2026-12-03")
        try FileManager.default.createDirectory(at: day, withIntermediateDirectories: true)
        let generated = try Self.python(["Benchmarks/generate_postbacks.py", "90"])
        let lines = generated.stdout.split(separator: "\n").map(String.init)
        let segments = [Array(lines[0..<30]), Array(lines[30..<60]), Array(lines[60..<90]) + [lines[2]]]
        for (index, segment) in segments.enumerated() {
            let name = "bench-20261203T0\(index)0000Z-1"
            try (segment.joined(separator: "\n") + "\n").write(
                to: day.appendingPathComponent(name + ".jsonl"), atomically: true, encoding: .utf8)
            let times = segment.indices.map { String(1_764_720_000 + index * 3_600 + $0) + "\n" }.joined()
            try times.write(to: day.appendingPathComponent(name + ".times"), atomically: true, encoding: .utf8)
        }
        let result = try Self.python([
            "Tests/Warehouse/store_recipe.py", "--skanc", CLI.executable.path, "--schema", "Schemas/Shop.skan",
            "--store", directory.url.path,
        ])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr.suffix(2000))")
        #expect(result.stdout.contains("store recipe: 91 rows from 3 segments, 91 from skanc postbacks, 0 differ"))
    }

    @Test func duckdbDecodesAsTheCLI() throws {
        let manyApps = try ManyAppsDecodingTests.Fixture()
        // Versions live together: schema_version and the fields of both; values told apart by a marker bit,
        // and values two versions share (ambiguous-version).
        let versions = ["ShopMarked", "ShopV4"].map {
            ParityRun.schema(
                "Schemas/Shop.skan,Tests/SkanCompilerTests/Fixtures/\($0).skan", files: Array(Self.files.prefix(2)))
        }
        try Self.expectParity("duckdb", [.schema(), Self.manyAppsRun(manyApps)] + versions)
    }

    /// The hostile fixture reaches every status `skanc postbacks --no-verify` can give (ambiguous-version with
    /// two overlapping versions), so the parity tests compare each status's rule.
    @Test func hostileFixtureReachesEveryStatus() throws {
        var seen = Set<String>()
        for schema in ["Schemas/Shop.skan", "Schemas/Shop.skan,Tests/SkanCompilerTests/Fixtures/ShopV4.skan"] {
            let path = String(Self.files[0].split(separator: ":")[0])
            let result = try CLI.run(["postbacks", schema, path, "--no-verify", "--format", "jsonl"])
            for line in result.stdout.split(separator: "\n") {
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
                seen.insert(object["status"] as! String)
            }
        }
        // Every status but bad-signature, which needs signatures checked (the SQL checks none).
        let expected: Set<String> = [
            "ok", "line-too-long", "not-json", "not-object", "jws-unreadable", "wrong-type", "out-of-range",
            "unknown-version", "missing-field", "field-not-allowed", "signed-field-outside", "value-in-payload",
            "bad-source-identifier", "unknown-coarse", "unknown-conversion-type", "unknown-interaction-type",
            "fine-and-coarse", "fine-not-first", "non-winner-extra", "invalid-fine", "ambiguous-version",
            "test-postback",
            "duplicate",
        ]
        #expect(seen == expected, "missing: \(expected.subtracting(seen)), unexpected: \(seen.subtracting(expected))")
    }

    @Test func sqliteDecodesAsTheCLI() throws {
        let manyApps = try ManyAppsDecodingTests.Fixture()
        try Self.expectParity("sqlite", [.schema(), Self.manyAppsRun(manyApps)])
    }

    @Test func postgresDecodesAsTheCLI() throws {
        let manyApps = try ManyAppsDecodingTests.Fixture()
        try Self.expectParity("postgres", [.schema(), Self.manyAppsRun(manyApps)])
    }

    /// Spark's decoding and report parity in one invocation (Tests/Warehouse/parity.py): its JVM starts and
    /// compiles its hot code once, about 45 s of CPU a start on this machine.
    @Test func sparkDecodesAndReportsAsTheCLI() throws {
        let manyApps = try ManyAppsDecodingTests.Fixture()
        let decodeRuns = [ParityRun.schema(), Self.manyAppsRun(manyApps)]
        let reportRuns = ReportSQLTests.sparkRuns
        let arguments = Self.runArguments(
            decodeRuns.map { ["decode"] + $0.named + $0.files } + reportRuns.map { ["report"] + $0.arguments })
        let result = try Self.python(
            ["Tests/Warehouse/parity.py", "--engine", "spark", "--skanc", CLI.executable.path] + arguments)
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr.suffix(3000))")
        let outputs = Self.runOutputs(result.stdout)
        #expect(outputs.count == decodeRuns.count + reportRuns.count, "\(result.stdout)")
        for (run, output) in zip(decodeRuns, outputs) { Self.expectRun("spark", run, output: output) }
        for (run, output) in zip(reportRuns, outputs.dropFirst(decodeRuns.count)) {
            ReportSQLTests.expectRun("spark", run, output: output)
        }
    }

    /// `--schemas DIR` of two apps (ManyAppsDecodingTests.Fixture): each row decoded by its own app's versions,
    /// `unknown-app` for the others, in the engine as in the CLI; the hostile fixture too, whose lines mostly
    /// carry no app ID a folder is for, so that every status keeps its place before and after `unknown-app`.
    static func manyAppsRun(_ fixture: ManyAppsDecodingTests.Fixture) -> ParityRun {
        ParityRun(named: ["--schemas", fixture.setup.out], files: [files[0], fixture.postbacks])
    }
}
