import Foundation
import SkanCompiler
import SkanPostbacks
import SkanSchema
import SkanTestSupport
import Testing

@testable import SkanWarehouse

/// The decoding views as text, per engine: what `WarehouseSQLTests` then runs on the engines themselves.
struct DecodeSQLTests {
    static func sql(
        _ dialect: WarehouseDialect, names: DecodeSQL.Names = DecodeSQL.Names(), schemas: [String] = ["Shop"]
    ) throws -> String {
        DecodeSQL(versions: LiveVersions(try schemas.map(shippedSchema)), dialect: dialect, names: names).render()
    }

    /// The column names of the view's outer SELECT, in order.
    static func outputColumns(_ sql: String, quote: Character) -> [String] {
        guard let select = sql.range(of: "FROM skanc_checked AS c", options: .backwards) else { return [] }
        let head = sql[..<select.lowerBound]
        let outer = head[head.range(of: "\nSELECT\n", options: .backwards)!.upperBound...]
        return outer.split(separator: "\n").compactMap { line in
            guard let alias = line.range(of: " AS \(quote)", options: .backwards) else { return nil }
            return String(line[alias.upperBound...].prefix { $0 != quote })
        }
    }

    /// One schema: no file column (the table has none) and no schema version (there is one).
    @Test(arguments: WarehouseDialect.allCases)
    func theViewHasThePostbackColumnsThenTheFieldsInOrder(_ dialect: WarehouseDialect) throws {
        let quote: Character = dialect == .spark ? "`" : "\""
        let columns = Self.outputColumns(try Self.sql(dialect), quote: quote)
        let expected =
            PostbackColumn.beforeFields.filter { $0 != .file && $0 != .receivedAt && $0 != .schemaVersion }.map(\.name)
            + [
                "registered", "payment_tier", "day_one_action",
            ]
            + PostbackColumn.afterFields.map(\.name)
        #expect(columns == expected)
    }

    /// With a column of receipt times, `received_at` follows `line`, as in `skanc postbacks` over a store.
    @Test(arguments: WarehouseDialect.allCases)
    func aReceiptColumnAddsReceivedAt(_ dialect: WarehouseDialect) throws {
        var names = DecodeSQL.Names()
        names.receivedColumn = "received"
        let sql = try Self.sql(dialect, names: names)
        let columns = Self.outputColumns(sql, quote: dialect == .spark ? "`" : "\"")
        #expect(columns.prefix(3) == ["line", "received_at", "status"])
        #expect(sql.contains("-- Reads postback_lines(line, text, received)"))
    }

    @Test(arguments: WarehouseDialect.allCases)
    func theSameSchemaGivesTheSameBytes(_ dialect: WarehouseDialect) throws {
        #expect(try Self.sql(dialect) == (try Self.sql(dialect)))
    }

    @Test func namesFromTheCommandLineAreQuotedPartByPart() throws {
        var names = DecodeSQL.Names()
        names.table = "analytics.raw \"lines\""
        names.view = "decoded`view"
        let sqlite = try Self.sql(.sqlite, names: names)
        #expect(sqlite.contains("FROM \"analytics\".\"raw \"\"lines\"\"\""))
        #expect(sqlite.contains("CREATE VIEW \"decoded`view\" AS"))
        let spark = try Self.sql(.spark, names: names)
        #expect(spark.contains("FROM `analytics`.`raw \"lines\"`"))
        #expect(spark.contains("`decoded``view`"))
    }

    @Test func literalsCannotEndEarly() {
        let hostile = "it's\\ a\nline\u{0}"
        #expect(WarehouseDialect.sqlite.literal(hostile) == "'it''s\\ a' || char(10) || 'line\u{FFFD}'")
        #expect(WarehouseDialect.spark.literal(hostile) == "'it''s\\\\ a\\nline\u{FFFD}'")
    }

    @Test func withoutAViewTheQueryStandsAlone() throws {
        var names = DecodeSQL.Names()
        names.view = nil
        let query = try Self.sql(.duckdb, names: names)
        #expect(!query.contains("CREATE VIEW"))
        #expect(query.contains("FROM skanc_checked AS c"))
    }
}
