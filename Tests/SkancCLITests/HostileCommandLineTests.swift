import Foundation
import SkanCompiler
import SkanCore
import SkanTestSupport
import Testing

/// Command-line inputs found by a hostile sweep: schemas from pipes, empty names between commas, standard
/// input twice, control characters in descriptions, names SQL engines keep, qualified table names, line breaks
/// in SQL strings, and the nesting limit.
@Suite struct HostileCommandLineTests {
    @Test func aSchemaFromAPipeIsRead() throws {
        let scratch = try TemporaryDirectory()
        defer { withExtendedLifetime(scratch) {} }
        let directory = scratch.url
        let fifo = directory.appendingPathComponent("schema.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let shop = try String(contentsOf: CLI.packageRoot.appendingPathComponent("Schemas/Shop.skan"), encoding: .utf8)
        // A writer on its own thread: opening a FIFO waits for the reader, which is skanc.
        let writer = Thread { try? shop.write(toFile: fifo, atomically: false, encoding: .utf8) }
        writer.start()
        let result = try CLI.run(["check", fifo])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
    }

    @Test(arguments: [
        ["table", ","], ["decode", ",", "1"], ["sql", ",", "--dialect", "duckdb"], ["postbacks", ",", "x.jsonl"],
        ["table", "Schemas/Shop.skan,"],
    ])
    func anEmptyNameBetweenCommasIsBadUsage(_ arguments: [String]) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 64)
        #expect(
            result.stderr.hasPrefix(
                "skanc: error: '\(arguments[1])' names no schema between its commas; write SCHEMA or V3.skan,V4.skan\n")
        )
    }

    @Test func standardInputIsReadOnce() throws {
        let shop = try String(contentsOf: CLI.packageRoot.appendingPathComponent("Schemas/Shop.skan"), encoding: .utf8)
        let diff = try CLI.run(["diff", "-", "-"], stdin: shop)
        #expect(diff.status == 64)
        #expect(
            diff.stderr.hasPrefix(
                "skanc: error: standard input (-) can be read once; name a file for the other schema\n"))
        let check = try CLI.run(["check", "-", "-"], stdin: shop)
        #expect(check.status == 64)
    }

    @Test func controlCharactersInADescriptionAreShownEscaped() throws {
        let scratch = try TemporaryDirectory(files: [
            "Esc.skan":
                "schema T\nversion 1\nflag a at bit 0 \"x\\u{1b}[1A\\u{1b}[2K\\u{1b}]0;title\\u{7}y\"\nreserved bits 1...5\ncoarse { low otherwise }\n"
        ])
        defer { withExtendedLifetime(scratch) {} }
        let result = try CLI.run(["decode", "Esc.skan", "1"], in: scratch.url)
        #expect(result.status == 0)
        #expect(!result.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(result.stdout.contains(#"(x\u{1B}[1A\u{1B}[2K\u{1B}]0;title\u{7}y)"#))
    }

    @Test(arguments: ["ctid", "xmin", "tableoid", "true", "false"])
    func namesEnginesKeepAreRefused(_ name: String) throws {
        let result = try CLI.run(
            ["check", "-"],
            stdin: "schema T\nversion 1\nflag \(name) at bit 0\nreserved bits 1...5\ncoarse { low otherwise }\n")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("<stdin>:3:6: error: '\(name)' would make the column '\(name)', which "))
    }

    @Test func aQualifiedTableNameIsQuotedPartByPart() throws {
        let result = try CLI.run([
            "sql", "Schemas/Shop.skan", "--dialect", "postgres", "--table", "analytics.postback_lines",
        ])
        #expect(result.status == 0)
        #expect(result.stdout.contains(#"FROM "analytics"."postback_lines""#))
    }

    /// A name with a line break once ended the `-- Reads …` comment and ran the rest as SQL (a DROP TABLE in
    /// sqlite3); an empty view name wrote `FROM ""`.
    @Test(arguments: [
        ["--table", "postback_lines\nDROP TABLE important; --"], ["--line-column", "line\r--"],
        ["--text-column", "text\u{2028}x"], ["--view", ""], ["--view", "a\u{7}b"], ["--table", "analytics."],
        ["--report", "--view", "v\nDROP TABLE important; --"], ["--report", "--view", ""],
    ])
    func sqlNamesWithControlCharactersOrNothingAreRefused(_ options: [String]) throws {
        let result = try CLI.run(["sql", "Schemas/Shop.skan", "--dialect", "sqlite"] + options)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("the name given to \(options[options.count - 2])"))
    }

    @Test func aQualifiedViewIsCreatedWhereTheReportReadsIt() throws {
        let decode = try CLI.run(["sql", "Schemas/Shop.skan", "--dialect", "postgres", "--view", "a.decoded"])
        let report = try CLI.run([
            "sql", "Schemas/Shop.skan", "--dialect", "postgres", "--report", "--view", "a.decoded",
        ])
        #expect(decode.status == 0 && report.status == 0)
        #expect(decode.stdout.contains(#"CREATE VIEW "a"."decoded" AS"#))
        #expect(report.stdout.contains(#"FROM "a"."decoded""#))
    }

    @Test func lineBreaksInSQLStringsSurviveTheSQLiteShell() throws {
        let literal = SQLDialect.sqlite.string("one\r\ntwo'")
        #expect(literal == "'one' || char(13) || '' || char(10) || 'two'''")
        #expect(SQLDialect.postgres.string("a\nb") == "'a' || chr(10) || 'b'")
        let load = try CLI.run(
            [":memory:"], stdin: "SELECT hex(\(literal));\n", executable: URL(fileURLWithPath: "/usr/bin/env"),
            prefix: ["sqlite3"])
        #expect(load.status == 0, "\(load.stderr)")
        #expect(load.stdout == "6F6E650D0A74776F27\n")  // "one\r\ntwo'"
    }

    @Test func conditionsMayNestSixtyFourDeepAndNoMore() throws {
        func schema(_ depth: Int) -> String {
            let condition = String(repeating: "(", count: depth) + "a" + String(repeating: ")", count: depth)
            return
                "schema T\nversion 1\nflag a at bit 0\nreserved bits 1...5\ncoarse { high when \(condition)  low otherwise }\n"
        }
        #expect(try CLI.run(["check", "-"], stdin: schema(64)).status == 0)
        let deeper = try CLI.run(["check", "-"], stdin: schema(65))
        #expect(deeper.status == 1)
        #expect(deeper.stderr.contains("nests deeper than 64 levels"))
    }
}
