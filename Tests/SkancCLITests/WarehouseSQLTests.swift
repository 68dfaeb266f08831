import Foundation
import SkanTestSupport
import Testing

/// `skanc sql` on the four real engines, row for row and column for column against `skanc postbacks
/// --no-verify` (Tests/Warehouse/warehouse_parity.py): the hostile fixture (every status and the JSON corner
/// cases, Tests/Warehouse/hostile_postbacks.py), Apple's examples and the 200,000-line benchmark file. Lines an
/// engine cannot decode as skanc does are excluded by name, each printed with its reason (docs/Warehouse.md).
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
        let generated = try! python(["Benchmarks/generate_postbacks.py", "200000"])
        precondition(generated.status == 0, generated.stderr)
        try! generated.stdout.write(toFile: benchmark, atomically: true, encoding: .utf8)
        return ["\(hostile):\(names)", "Tests/Fixtures/apple-examples.jsonl", benchmark]
    }()

    static func python(_ arguments: [String]) throws -> CLIResult {
        try CLI.run(arguments, executable: URL(fileURLWithPath: "/usr/bin/env"), prefix: ["python3"])
    }

    /// Runs the parity check on `engine` and expects every compared row equal, with the three files compared.
    static func expectParity(_ engine: String, schema: String = "Schemas/Shop.skan", files: [String] = files) throws {
        let result = try python(
            [
                "Tests/Warehouse/warehouse_parity.py", "--engine", engine, "--skanc", CLI.executable.path, "--schema",
                schema,
            ]
                + files)
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr.suffix(3000))")
        let summaries = result.stdout.split(separator: "\n").filter { $0.hasPrefix("\(engine) ") }
        #expect(summaries.count == files.count, "\(result.stdout)")
        for summary in summaries { #expect(summary.contains("(0 differ,"), "\(summary)") }
        #expect(
            result.stdout.contains("\(engine) benchmark.jsonl: 200000 rows equal") || files.count < 3,
            "\(result.stdout)")
    }

    @Test func duckdbDecodesAsTheCLI() throws {
        try Self.expectParity("duckdb")
        // Versions live together: schema_version and the fields of both; values told apart by a marker bit,
        // and values two versions share (ambiguous-version).
        for other in ["ShopMarked", "ShopV4"] {
            try Self.expectParity(
                "duckdb", schema: "Schemas/Shop.skan,Tests/SkanCompilerTests/Fixtures/\(other).skan",
                files: Array(Self.files.prefix(2)))
        }
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
        try Self.expectParity("sqlite")
    }

    @Test func postgresDecodesAsTheCLI() throws {
        try Self.expectParity("postgres")
    }

    @Test func sparkDecodesAsTheCLI() throws {
        try Self.expectParity("spark")
    }
}
