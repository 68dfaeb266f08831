import Foundation
import SkanTestSupport
import Testing

/// `skanc sql`: usage errors, exit statuses and what the SQL names. Its decoding is checked on the engines
/// themselves (WarehouseSQLTests).
@Suite struct SQLCommandTests {
    @Test func writesAViewForEachDialect() throws {
        for dialect in ["duckdb", "postgres", "sqlite", "spark"] {
            let result = try CLI.run(["sql", "Schemas/Shop.skan", "--dialect", dialect])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.isEmpty)
            let quote = dialect == "spark" ? "`" : "\""
            let view = "\(quote)decoded_postbacks\(quote)"
            let create =
                ["duckdb", "spark"].contains(dialect)
                ? "CREATE OR REPLACE VIEW \(view) AS" : "DROP VIEW IF EXISTS \(view);\nCREATE VIEW \(view) AS"
            #expect(result.stdout.contains(create))
            #expect(result.stdout.contains("FROM \(quote)postback_lines\(quote)"))
            #expect(result.stdout.contains("AS \(quote)payment_tier\(quote)"))
            #expect(result.stdout.contains("CREATE OR REPLACE FUNCTION skanc_jsonb") == (dialect == "postgres"))
            // Byte for byte the same on a second run.
            #expect(try CLI.run(["sql", "Schemas/Shop.skan", "--dialect", dialect]).stdout == result.stdout)
        }
    }

    @Test func namesAreConfigurableAndQuoted() throws {
        let result = try CLI.run([
            "sql", "Schemas/Shop.skan", "--dialect", "duckdb", "--table", "raw \"lines\"", "--line-column", "n",
            "--text-column", "json", "--view", "shop",
        ])
        #expect(result.status == 0)
        #expect(result.stdout.contains("CREATE OR REPLACE VIEW \"shop\" AS"))
        #expect(result.stdout.contains("FROM \"raw \"\"lines\"\"\""))
        #expect(result.stdout.contains("CAST(\"n\" AS BIGINT) AS line"))
        #expect(result.stdout.contains("CAST(\"json\" AS VARCHAR)"))
        let query = try CLI.run(["sql", "Schemas/Shop.skan", "--dialect", "sqlite", "--query"])
        #expect(query.status == 0)
        #expect(!query.stdout.contains("CREATE VIEW"))
        #expect(query.stdout.contains("WITH RECURSIVE"))
    }

    @Test func usageErrorsExit64AndSchemaErrors1() throws {
        let noDialect = try CLI.run(["sql", "Schemas/Shop.skan"])
        #expect(noDialect.status == 64)
        #expect(noDialect.stderr.contains("--dialect duckdb|postgres|sqlite|spark"))
        #expect(try CLI.run(["sql", "Schemas/Shop.skan", "--dialect", "bigquery"]).status == 64)
        #expect(try CLI.run(["sql", "--dialect", "duckdb"]).status == 64)
        #expect(
            try CLI.run(["sql", "Schemas/Shop.skan", "--dialect", "duckdb", "--query", "--view", "v"]).status == 64)
        #expect(try CLI.run(["sql", "Schemas/Shop.skan", "--dialect", "duckdb", "--table", ""]).status == 64)
        let missing = try CLI.run(["sql", "no/such.skan", "--dialect", "duckdb"])
        #expect(missing.status == 1)
        #expect(missing.stdout.isEmpty)
        let help = try CLI.run(["sql", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: skanc sql"))
    }
}
