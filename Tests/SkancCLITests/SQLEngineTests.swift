import Foundation
import SkanTestSupport
import Testing

/// `skanc table --format sql` loaded into real engines and joined against Apple's example postbacks
/// (Tests/Fixtures/apple-examples.jsonl) on `fine_value = conversion-value`. .ci/run installs the engines:
/// the sqlite3 command and Python's duckdb package.
@Suite struct SQLEngineTests {
    static let postbacks = CLI.packageRoot.appendingPathComponent("Tests/Fixtures/apple-examples.jsonl")

    /// Per postback line: line, conversion-value, valid, registered, payment_tier, day_one_action, coarse_window_1.
    /// 20 = medium tier + addedToCart (coarse high); 63 has reserved bit 5 set; 24 = ordered (coarse medium);
    /// lines 3 and 5 carry no fine value.
    static let expected = [
        "1,20,true,false,medium,addedToCart,high",
        "2,20,true,false,medium,addedToCart,high",
        "3,,,,,,",
        "4,63,false,,,,",
        "5,,,,,,",
        "6,24,true,false,none,ordered,medium",
    ]

    static func lines() throws -> [String] {
        try String(contentsOf: postbacks, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    static func run(_ executable: String, _ arguments: [String], stdin: String) throws -> CLIResult {
        try CLI.run(arguments, stdin: stdin, executable: URL(fileURLWithPath: "/usr/bin/env"), prefix: [executable])
    }

    /// Fails the test with the command that installs an engine when `check` shows it missing.
    static func requireEngine(_ name: String, check: [String], install: String) throws {
        let probe = try CLI.run(check, executable: URL(fileURLWithPath: "/usr/bin/env"))
        try #require(
            probe.status == 0,
            "\(name) is not installed; install it with `\(install)`, or run `bash .ci/run`, which installs it")
    }

    @Test func sqliteJoinsPostbacks() throws {
        try Self.requireEngine(
            "the sqlite3 command", check: ["sqlite3", "-version"], install: "apt-get install -y sqlite3")
        let table = try CLI.run(["table", "Schemas/Shop.skan", "--format", "sql", "--dialect", "sqlite"])
        #expect(table.status == 0)
        var script = table.stdout + "CREATE TABLE raw (n INTEGER, line TEXT);\n"
        for (index, line) in try Self.lines().enumerated() {
            script += "INSERT INTO raw VALUES (\(index + 1), '\(line.replacingOccurrences(of: "'", with: "''"))');\n"
        }
        script += """
            .mode csv
            SELECT r.n, json_extract(r.line, '$."conversion-value"'),
                   CASE t.valid WHEN 1 THEN 'true' WHEN 0 THEN 'false' END,
                   CASE t.registered WHEN 1 THEN 'true' WHEN 0 THEN 'false' END,
                   t.payment_tier, t.day_one_action, t.coarse_window_1
            FROM raw r LEFT JOIN shop_v3 t ON t.fine_value = json_extract(r.line, '$."conversion-value"')
            ORDER BY r.n;
            SELECT count(*), sum(states) FROM shop_v3_coarse WHERE "window" = 1;

            """
        let result = try Self.run("sqlite3", ["-batch", ":memory:"], stdin: script)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout.split(whereSeparator: \.isNewline).map(String.init) == Self.expected + ["3,32"])
    }

    @Test func duckdbJoinsPostbacks() throws {
        try Self.requireEngine(
            "Python's duckdb package", check: ["python3", "-c", "import duckdb"],
            install: "python3 -m pip install duckdb")
        let table = try CLI.run(["table", "Schemas/Shop.skan", "--format", "sql", "--dialect", "duckdb"])
        #expect(table.status == 0)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "skanc-duckdb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let sqlFile = directory.appendingPathComponent("shop.sql")
        try table.stdout.write(to: sqlFile, atomically: true, encoding: .utf8)
        let program = """
            import duckdb, sys
            con = duckdb.connect()
            con.execute(open(sys.argv[1]).read())
            con.execute("CREATE TABLE raw (n INTEGER, line VARCHAR)")
            lines = open(sys.argv[2]).read().splitlines()
            con.executemany("INSERT INTO raw VALUES (?, ?)", [(i + 1, l) for i, l in enumerate(lines)])
            rows = con.execute('''
                SELECT r.n, CAST(json_extract(r.line, '$."conversion-value"') AS INTEGER) AS cv,
                       t.valid, t.registered, t.payment_tier, t.day_one_action, t.coarse_window_1
                FROM raw r LEFT JOIN shop_v3 t
                  ON t.fine_value = CAST(json_extract(r.line, '$."conversion-value"') AS INTEGER) ORDER BY r.n''').fetchall()
            def cell(v):
                return "" if v is None else ("true" if v is True else "false" if v is False else str(v))
            for row in rows:
                print(",".join(cell(v) for v in row))
            print(con.execute('SELECT count(*), sum(states) FROM shop_v3_coarse WHERE "window" = 1').fetchone())
            """
        let result = try Self.run("python3", ["-c", program, sqlFile.path, Self.postbacks.path], stdin: "")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(whereSeparator: \.isNewline).map(String.init) == Self.expected + ["(3, 32)"])
    }
}
