import Foundation
import SkanTestSupport
import Testing

@Suite struct TableCommandTests {
    @Test func everyFormatPrintsItsGolden() throws {
        let goldens = CLI.packageRoot.appendingPathComponent("Tests/SkanSchemaToolsTests/Goldens/Tables")
        for (format, file) in [
            ("text", "Shop.txt"), ("csv", "Shop.csv"), ("json", "Shop.json"), ("markdown", "Shop.md"),
            ("html", "Shop.html"),
        ] {
            let result = try CLI.run(["table", "Schemas/Shop.skan", "--format", format])
            #expect(result.status == 0)
            #expect(
                result.stdout == (try String(contentsOf: goldens.appendingPathComponent(file), encoding: .utf8)),
                "\(format)")
        }
        let sql = try CLI.run(["table", "Schemas/Subscription.skan", "--format=sql", "--dialect=bigquery"])
        #expect(
            sql.stdout
                == (try String(contentsOf: goldens.appendingPathComponent("Subscription.bigquery.sql"), encoding: .utf8))
        )
        #expect(try CLI.run(["table", "Schemas/Shop.skan"]).stdout.hasPrefix("Shop version 3: fine values"))
        let coarse = try CLI.run(["table", "Schemas/Shop.skan", "--format", "csv", "--table", "coarse"])
        #expect(
            coarse.stdout
                == (try String(contentsOf: goldens.appendingPathComponent("Shop.coarse.csv"), encoding: .utf8)))
    }

    @Test func badUsageAndBadSchemas() throws {
        #expect(try CLI.run(["table"]).status == 64)
        #expect(try CLI.run(["table", "Schemas/Shop.skan", "--format", "xml"]).status == 64)
        #expect(try CLI.run(["table", "Schemas/Shop.skan", "--dialect", "duckdb"]).status == 64)
        let bothInCSV = try CLI.run(["table", "Schemas/Shop.skan", "--format", "csv", "--table", "both"])
        #expect(bothInCSV.status == 64)
        #expect(bothInCSV.stderr.contains("--table fine and --table coarse"))
        #expect(try CLI.run(["table", "Schemas/Shop.skan", "--format", "json", "--table", "fine"]).status == 64)
        let broken = try CLI.run(["table", "Tests/SkanCompilerTests/Fixtures/invalid/syntax.skan"])
        #expect(broken.status == 1)
        #expect(broken.stdout.isEmpty)
        #expect(broken.stderr.contains("syntax.skan:5:24: error:"))
    }
}

@Suite struct DecodeCommandTests {
    @Test func fineValueExplainsEachField() throws {
        let result = try CLI.run(["decode", "Schemas/Shop.skan", "11"])
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                11 (bits 001011): Shop v3
                  registered    true  (Completed registration)
                  paymentTier   low  (Highest purchase tier; under $5)
                  dayOneAction  browsed  (Deepest action on the first day)
                  coarse: window 1 medium, window 2 medium, window 3 medium
                  lock: never

                """)
    }

    @Test func invalidValuesSayWhyAndExit1() throws {
        let reserved = try CLI.run(["decode", "Schemas/Shop.skan", "42"])
        #expect(reserved.status == 1)
        #expect(
            reserved.stdout
                == "42: not a Shop v3 fine value: bit 5 is reserved (Zero in this layout; set it when the layout changes)\n"
        )
        let several = try CLI.run(["decode", "Schemas/Subscription.skan", "7", "64", "-1", "huge", "3"])
        #expect(several.status == 1)
        #expect(
            several.stdout.contains(
                "7: not a Subscription v2 fine value: bits 0...2 hold code 7, which is no case of revenue\n"))
        #expect(
            several.stdout.contains(
                "64: not a Subscription v2 fine value: 64 is not a fine value: fine values are 0...63\n"))
        #expect(several.stdout.contains("-1: not a Subscription v2 fine value"))
        #expect(several.stdout.contains("'huge': not a value"))
        #expect(several.stdout.contains("3 (bits 000011): Subscription v2\n"))
    }

    @Test func coarseValueShowsTheRuleAndItsStates() throws {
        let result = try CLI.run(["decode", "Schemas/Subscription.skan", "high", "--window", "2"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first == "high in window 2: revenue >= mid")
        #expect(lines.count == 2)
        #expect(lines[1].hasPrefix("  32 states: fine values 3, 4, 5, 6, 11,"))
        let allWindows = try CLI.run(["decode", "Schemas/Shop.skan", "medium"])
        #expect(allWindows.stdout.split(separator: "\n").filter { $0.hasPrefix("medium in window") }.count == 3)
    }

    @Test func jsonOutputIsAnArray() throws {
        let result = try CLI.run([
            "decode", "Schemas/Shop.skan", "11", "42", "low", "--window", "1", "--format", "json",
        ])
        #expect(result.status == 1)
        let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        let values = try #require(parsed)
        #expect(values.count == 3)
        #expect((values[0]["fields"] as? [String: [String: Any]])?["paymentTier"]?["case"] as? String == "low")
        #expect(values[1]["problem"] as? String == "reserved-bit")
        #expect(values[2]["rule"] as? String == "otherwise")
    }

    @Test func badUsage() throws {
        #expect(try CLI.run(["decode", "Schemas/Shop.skan"]).status == 64)
        #expect(try CLI.run(["decode", "Schemas/Shop.skan", "high", "--window", "4"]).status == 64)
        #expect(try CLI.run(["decode", "Schemas/Shop.skan", "1", "--format", "xml"]).status == 64)
    }
}
