import Foundation
import SkanCore
import SkanSchema
import SkanTestSupport
import Testing

@testable import SkanCompiler
@testable import SkanSchemaTools

/// Every table format, and SQL in every dialect, for each example schema, against golden files in
/// Tests/SkanSchemaToolsTests/Goldens/Tables/ (see `expectGolden`).
@Suite struct TableGoldenTests {
    static let schemas = ["Shop", "EventFlags", "Subscription"]
    static let fileExtensions: [TableFormat: String] = [
        .text: "txt", .csv: "csv", .json: "json", .markdown: "md", .html: "html", .sql: "sql",
    ]

    @Test(arguments: schemas, TableFormat.allCases)
    func formatMatchesGolden(_ name: String, _ format: TableFormat) throws {
        let table = DecodingTable(schema: try shippedSchema(name))
        if format == .sql {
            for dialect in SQLDialect.allCases {
                try expectGolden(
                    table.render(.sql, dialect: dialect),
                    at: "Tests/SkanSchemaToolsTests/Goldens/Tables/\(name).\(dialect.rawValue).sql")
            }
        } else {
            try expectGolden(
                table.render(format),
                at: "Tests/SkanSchemaToolsTests/Goldens/Tables/\(name).\(Self.fileExtensions[format]!)")
        }
        if format == .csv {
            try expectGolden(
                table.render(.csv, tables: .coarse), at: "Tests/SkanSchemaToolsTests/Goldens/Tables/\(name).coarse.csv")
        }
    }

    @Test func aCSVFileIsOneTable() throws {
        let table = DecodingTable(schema: try shippedSchema("Shop"))
        for selection in [TableSelection.fine, .coarse] {
            let lines = table.render(.csv, tables: selection).split(separator: "\r\n", omittingEmptySubsequences: false)
            #expect(lines.last == "")
            let rows = lines.dropLast()
            // No blank line, and every row has as many cells as the header (no quoted commas in Shop).
            #expect(rows.allSatisfy { !$0.isEmpty })
            #expect(Set(rows.map { $0.filter { $0 == "," }.count }).count == 1)
            #expect(rows.count == (selection == .fine ? 65 : 10))
        }
    }

    @Test func textMarkdownAndSQLWriteTheChosenTables() throws {
        let table = DecodingTable(schema: try shippedSchema("Shop"))
        #expect(!table.render(.text, tables: .fine).contains("coarse values"))
        #expect(!table.render(.text, tables: .coarse).contains("fine values"))
        #expect(table.render(.text) == table.render(.text, tables: .fine) + "\n" + table.render(.text, tables: .coarse))
        #expect(!table.render(.markdown, tables: .coarse).contains("## Fine values"))
        #expect(!table.render(.sql, tables: .fine).contains("shop_v3_coarse"))
        #expect(table.render(.sql, tables: .coarse).contains("CREATE TABLE \"shop_v3_coarse\""))
        #expect(!table.render(.sql, tables: .coarse).contains("CREATE TABLE \"shop_v3\" "))
    }

    @Test func fineTableHasOneRowPerFineValueAndTheDocumentedColumns() throws {
        let table = DecodingTable(schema: try shippedSchema("Shop"))
        #expect(table.fineRows.count == 64)
        #expect(
            table.fineColumns.map(\.name) == [
                "fine_value", "bits", "valid", "reason", "registered", "payment_tier", "day_one_action",
                "coarse_window_1", "coarse_window_2", "coarse_window_3", "lock_window_1", "lock_window_2",
                "lock_window_3",
            ])
        #expect(
            table.fineRows[11] == [
                "11", "001011", "true", nil, "true", "low", "browsed", "medium", "medium", "medium", "false", "false",
                "false",
            ])
        #expect(table.fineRows[42][2] == "false")
        #expect(table.fineRows[42][3]?.hasPrefix("bit 5 is reserved") == true)
        #expect(table.coarseRows.count == 9)
        // Every valid state is counted once per window.
        for window in 0..<3 {
            #expect(table.coarseRows[(window * 3)..<(window * 3 + 3)].map { Int($0[3]!)! }.reduce(0, +) == 32)
        }
    }

    @Test func snakeCaseColumnNames() {
        #expect(ColumnNames.snakeCase("paymentTier") == "payment_tier")
        #expect(ColumnNames.snakeCase("dayOneAction") == "day_one_action")
        #expect(ColumnNames.snakeCase("reachedLevel10") == "reached_level10")
        #expect(ColumnNames.snakeCase("HTTPCode") == "http_code")
        #expect(ColumnNames.snakeCase("Shop") == "shop")
    }
}

/// Text that comes from a schema must not escape its cell, literal or element in any format.
@Suite struct TableEscapingTests {
    static let hostile = "=cmd|' /C calc'!A0, \"quoted\" <b>&</b> | back\\slash\nnew line"

    @Test func csvQuotesAndNeutralisesFormulas() {
        #expect(CSVField.escaped("plain") == "plain")
        #expect(CSVField.escaped("a,b") == "\"a,b\"")
        #expect(CSVField.escaped("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSVField.escaped("=SUM(A1)") == "'=SUM(A1)")
        #expect(CSVField.escaped("+1") == "'+1")
        #expect(CSVField.escaped("@x") == "'@x")
        #expect(CSVField.escaped("-12") == "-12")
        #expect(CSVField.escaped("-x") == "'-x")
        #expect(CSVField.escaped(Self.hostile).hasPrefix("\"'=cmd|"))
    }

    @Test func markdownCellsEscape() {
        #expect(MarkdownRenderer.escape("|\u{301}") == "\\|\u{301}")
        #expect(MarkdownRenderer.escape("a\r\nb") == "a<br>b")
        #expect(MarkdownRenderer.escape("a|b\nc<d>") == "a\\|b<br>c&lt;d&gt;")
    }

    @Test func hostileDescriptionsStayInsideTheirCells() throws {
        let text = """
            schema Hostile version 1
            field rank at bits 0...1 { none = 0  odd = 1 "\(Self.hostile.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n"))" }
            reserved bits 2...5 "=HYPERLINK(\\"x\\") <script>alert(1)</script> '; DROP TABLE t; --"
            coarse { low otherwise }
            """
        let result = SchemaCompiler.compile(text)
        let schema = try #require(result.schema, "\(result.diagnostics)")
        let table = DecodingTable(schema: schema)
        let html = table.render(.html)
        #expect(!html.contains("<script>"))
        let csv = table.render(.csv)
        #expect(
            csv.contains("\"bit 2 is reserved (=HYPERLINK(\"\"x\"\") <script>alert(1)</script> '; DROP TABLE t; --)\""))
        let sql = table.render(.sql, dialect: .sqlite)
        #expect(sql.contains("'bit 2 is reserved (=HYPERLINK(\"x\") <script>alert(1)</script> ''; DROP TABLE t; --)'"))
        let markdown = table.render(.markdown)
        #expect(markdown.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!markdown.contains("<script>"))
    }
}

/// Every schema the project holds that compiles (fuzz regressions included, which once crashed other stages)
/// renders its decoding tables in every format, each naming the schema.
@Suite struct TableCorpusTests {
    @Test func everyCompiledSchemaRendersInEveryFormat() throws {
        var rendered = 0
        for url in try SchemaFormatterTests.projectSchemas() {
            guard let schema = SchemaCompiler.compile(try String(contentsOf: url, encoding: .utf8)).schema else {
                continue
            }
            let table = DecodingTable(schema: schema)
            for format in TableFormat.allCases where format != .csv {
                #expect(table.render(format).contains(schema.name), "\(url.lastPathComponent) as \(format)")
            }
            rendered += 1
        }
        #expect(rendered >= 20)
    }
}
