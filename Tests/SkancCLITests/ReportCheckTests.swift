import Foundation
import SkanTestSupport
import Testing

/// `skanc report --check RULES`: each rule fires on postbacks made to trip it and stays quiet otherwise; exit 1
/// when one fires, 0 when none does; a bad rules file is an error at its line.
@Suite struct ReportCheckTests {
    static let template =
        #"{"version":"4.0","ad-network-id":"NETWORK","source-identifier":"SOURCE","app-id":525463029,"transaction-id":"ID","redownload":false,"fidelity-type":1,"did-win":true,VALUE"postback-sequence-index":0}"#

    /// Postbacks over two days (a `.times` file beside them): on the first, ten installs of campaign 52 of network
    /// `one` with a fine value and two of network `two`; on the second, ten of `one`, half without a value.
    static func store(_ directory: URL) throws -> String {
        var lines: [String] = []
        var times: [String] = []
        func add(_ network: String, _ value: String, day: Int) {
            let id = String(format: "6aafb7a5-0170-41b5-bbe4-%012d", lines.count)
            lines.append(
                template.replacingOccurrences(of: "NETWORK", with: network)
                    .replacingOccurrences(of: "SOURCE", with: "5239").replacingOccurrences(of: "ID", with: id)
                    .replacingOccurrences(of: "VALUE", with: value))
            times.append(String(1_764_892_800 + day * 86_400 + lines.count))
        }
        for _ in 0..<10 { add("one.skadnetwork", #""conversion-value":4,"#, day: 0) }
        for _ in 0..<2 { add("two.skadnetwork", #""conversion-value":4,"#, day: 0) }
        for index in 0..<10 { add("one.skadnetwork", index < 5 ? "" : #""conversion-value":4,"#, day: 1) }
        let path = directory.appendingPathComponent("segment.jsonl").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        try (times.joined(separator: "\n") + "\n").write(
            toFile: directory.appendingPathComponent("segment.times").path, atomically: true, encoding: .utf8)
        return path
    }

    static func check(_ rules: String, _ segment: String, in directory: URL, _ extra: [String] = ["--no-verify"])
        throws -> CLIResult
    {
        let file = directory.appendingPathComponent("rules.txt")
        try rules.write(to: file, atomically: true, encoding: .utf8)
        return try CLI.run(["report", "Schemas/Game.skan", segment, "--check", file.path] + extra)
    }

    @Test func eachRuleFiresOnWhatTripsItAndStaysQuietOtherwise() throws {
        let directory = try TemporaryDirectory()
        let segment = try Self.store(directory.url)
        // Window 1's null share went from 0% to 50%; network two's campaign had installs and then none.
        let fired = try Self.check(
            "# day over day\nnull-share-change 1 20\ninstalls-to-zero\nunknown-version 1\n", segment, in: directory.url)
        #expect(fired.status == 1, "\(fired.stdout)\(fired.stderr)")
        let lines = fired.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(fired.stdout)")
        #expect(lines[0].hasSuffix("rules.txt:2: FIRED: window 1 null share 0.0% on 2025-12-05, 50.0% on 2025-12-06"))
        #expect(lines[1].contains("rules.txt:3: FIRED: no install on 2025-12-06 for two.skadnetwork / 52"))
        #expect(lines[2].contains("rules.txt:4: ok: 0.0% of 22 lines have a fine value of no live version"))
        let quiet = try Self.check("null-share-change 1 60\nunknown-version 1\n", segment, in: directory.url)
        #expect(quiet.status == 0 && quiet.stdout.components(separatedBy: ": ok: ").count == 3, "\(quiet.stdout)")
        // Verified: every made-up postback fails, past the 5% allowed.
        let forged = try Self.check("failing-verification 5\n", segment, in: directory.url, [])
        #expect(forged.status == 1 && forged.stdout.contains("FIRED: 100.0% of 22 lines fail verification (22)"))
    }

    @Test func aBadRulesFileIsAnErrorAtItsLine() throws {
        let directory = try TemporaryDirectory()
        let segment = try Self.store(directory.url)
        let unknown = try Self.check("installs-to-zero\nnull-share 1 5\n", segment, in: directory.url)
        #expect(unknown.status == 1 && unknown.stdout.isEmpty)
        #expect(unknown.stderr.contains("rules.txt:2:1: error: 'null-share' is no rule"), "\(unknown.stderr)")
        let range = try Self.check("null-share-change 4 5\n", segment, in: directory.url)
        #expect(
            range.stderr.contains("rules.txt:1:1: error: write 'null-share-change WINDOW POINTS'"), "\(range.stderr)")
        let usage = try CLI.run(["report", "Schemas/Game.skan", segment, "--check", "x", "--by", "campaign"])
        #expect(usage.status == 64 && usage.stderr.contains("drop --by"), "\(usage.stderr)")
    }
}

/// Re-engagements are conversions, not installs: every figure called install leaves them out, and their revenue
/// is a figure of its own.
@Suite struct ReengagementRevenueTests {
    @Test func installFiguresLeaveReengagementsOut() throws {
        let directory = try TemporaryDirectory()
        // Apple's AdAttributionKit example is a re-engagement (campaign 1234 of development.adattributionkit, fine
        // value 24); two SKAdNetwork installs of the same network and campaign, fine value 4.
        let reengagement = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("Tests/Fixtures/apple-examples.jsonl"), encoding: .utf8
        ).split(separator: "\n")[5]
        let installs = (0..<2).map { index in
            ReportCheckTests.template.replacingOccurrences(of: "NETWORK", with: "development.adattributionkit")
                .replacingOccurrences(of: "SOURCE", with: "1234")
                .replacingOccurrences(of: "ID", with: "6aafb7a5-0170-41b5-bbe4-00000000000\(index)")
                .replacingOccurrences(of: "VALUE", with: #""conversion-value":4,"#)
        }
        let input = directory.url.appendingPathComponent("postbacks.jsonl")
        try ((installs + [String(reengagement)]).joined(separator: "\n") + "\n").write(
            to: input, atomically: true, encoding: .utf8)
        let result = try CLI.run(["report", "Schemas/Game.skan", input.path, "--no-verify", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let group = try #require((root["groups"] as? [[String: Any]])?.first)
        let revenue = try #require((group["revenue"] as? [[String: Any]])?.first)
        let bounds = try #require(revenue["installs"] as? [String: Any])
        #expect(bounds["postbacks"] as? Int == 2 && bounds["with_fine_value"] as? Int == 2, "\(bounds)")
        let apart = try #require(revenue["reengagements"] as? [String: Any], "\(revenue)")
        #expect(apart["postbacks"] as? Int == 1 && apart["with_fine_value"] as? Int == 1, "\(apart)")
        // The page: the installs chart's bar is the 2 installs (not the 3 won postbacks), and the re-engagement's
        // revenue is a tile of its own: the JSON's bounds (0 to 0.01 USD, the range its fine value shows).
        let page = try CLI.run(["report", "Schemas/Game.skan", input.path, "--no-verify", "--format", "html"])
        #expect(page.status == 0, "\(page.stderr)")
        let chart = try #require(page.stdout.components(separatedBy: "<svg id=\"chart-postbacks\"").last)
            .components(separatedBy: "</svg>")[0]
        #expect(chart.contains(">2</text>") && !chart.contains(">3</text>"), "\(chart)")
        #expect(chart.contains("2 with a fine value"), "\(chart)")
        let tile = try #require(
            page.stdout.components(separatedBy: "revenue, re-engagements, revenue (hard bounds)<b>").dropFirst().first,
            "\(page.stdout)")
        #expect(apart["low"] as? Double == 0 && apart["high"] as? Double == 0.01, "\(apart)")
        #expect(tile.hasPrefix("0.00 to 0.01 USD</b>"), "\(tile.prefix(80))")
    }
}

/// `--by day --cost`: spend per day in the cost file joins each day's installs; the ratio holds per day.
@Suite struct CostByDayTests {
    @Test func spendPerDayJoinsEachDaysInstalls() throws {
        let directory = try TemporaryDirectory()
        let segment = try ReportCheckTests.store(directory.url)
        let cost = directory.url.appendingPathComponent("cost.csv")
        try
            "network,campaign,day,spend,currency\none.skadnetwork,5239,2025-12-05,30,USD\none.skadnetwork,5239,2025-12-06,60,USD\n"
            .write(to: cost, atomically: true, encoding: .utf8)
        let result = try CLI.run([
            "report", "Schemas/Game.skan", segment, "--no-verify", "--by", "ad_network_id,campaign,day", "--cost",
            cost.path, "--format", "json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let costs = (root["groups"] as? [[String: Any]] ?? []).compactMap { group -> (String, Double, Int)? in
            guard let by = group["by"] as? [String: Any], by["ad_network_id"] as? String == "one.skadnetwork",
                let day = by["day"] as? String, let cost = group["cost"] as? [String: Any],
                let spend = (cost["spend"] as? NSNumber)?.doubleValue, let rows = cost["rows"] as? Int
            else { return nil }
            return (day, spend, rows)
        }
        #expect(costs.map(\.0) == ["2025-12-05", "2025-12-06"] && costs.map(\.1) == [30, 60], "\(costs)")
        #expect(costs.allSatisfy { $0.2 == 1 })
    }
}

/// `--format csv --wide`: one row per group, one column per figure, and the BigQuery schema beside it; DuckDB loads
/// it with the schema's types unchanged, and every figure equals the JSON report's.
@Suite struct WideCSVTests {
    @Test func theWideCSVLoadsWithItsDeclaredTypesAndMatchesTheJSON() throws {
        let directory = try TemporaryDirectory()
        let segment = try ReportCheckTests.store(directory.url)
        let cost = directory.url.appendingPathComponent("cost.csv")
        try "network,campaign,day,spend,currency\none.skadnetwork,5239,2025-12-05,30,USD\n"
            .write(to: cost, atomically: true, encoding: .utf8)
        let wide = directory.url.appendingPathComponent("report.csv")
        let options = ["--no-verify", "--by", "ad_network_id,campaign,day", "--cost", cost.path]
        let made = try CLI.run(
            ["report", "Schemas/Game.skan", segment, "--format", "csv", "--wide", "-o", wide.path] + options)
        #expect(made.status == 0, "\(made.stderr)")
        let schema = directory.url.appendingPathComponent("report.schema.json")
        #expect(FileManager.default.fileExists(atPath: schema.path))
        // Loaded with the declared types (BigQuery's, as DuckDB names them); an empty cell is NULL.
        let script = """
            import duckdb, json, sys
            types = {"STRING": "VARCHAR", "INTEGER": "BIGINT", "FLOAT": "DOUBLE", "NUMERIC": "DECIMAL(38,9)"}
            fields = json.load(open(sys.argv[2]))
            columns = {field["name"]: types[field["type"]] for field in fields}
            rows = duckdb.sql("SELECT * FROM read_csv(?, header=true, auto_detect=false, columns=?)",
                              params=[sys.argv[1], columns]).fetchall()
            names = [field["name"] for field in fields]
            print(json.dumps([{name: (None if value is None else str(value)) for name, value in zip(names, row)}
                              for row in rows]))
            """
        let loaded = try CLI.run(
            ["-c", script, wide.path, schema.path], executable: try ChildProcess.onPath("python3"))
        #expect(loaded.status == 0, "\(loaded.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(loaded.stdout.utf8)) as? [[String: Any]])
        let json = try CLI.run(["report", "Schemas/Game.skan", segment, "--format", "json"] + options)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let groups = try #require(root["groups"] as? [[String: Any]])
        #expect(rows.count == groups.count)
        for (row, group) in zip(rows, groups) {
            let window = try #require((group["by_window"] as? [String: [String: Any]])?["1"])
            #expect(row["installs"] as? String == (window["installs"] as? Int).map(String.init))
            #expect(row["without_value"] as? String == (window["without_value"] as? Int).map(String.init))
            let installs = try #require((group["revenue"] as? [[String: Any]])?.first?["installs"] as? [String: Any])
            let low = try #require(Double(row["revenue_low"] as? String ?? ""))
            #expect(low == (installs["low"] as? NSNumber)?.doubleValue)
            let ratio = ((group["cost"] as? [String: Any])?["return_on_spend"] as? [[String: Any]])?.first
            #expect(
                (row["revenue_roas_low"] as? String).flatMap(Double.init) == (ratio?["low"] as? NSNumber)?.doubleValue)
        }
    }
}
