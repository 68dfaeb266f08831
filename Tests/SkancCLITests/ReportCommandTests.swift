import Foundation
import SkanCore
import SkanTestSupport
import Testing

/// `skanc report` from the command line: its four formats over signed, simulated postbacks, what it says about
/// rows that are not ok, its exit statuses, and its page in headless Chromium.
@Suite struct ReportCommandTests {
    /// Simulated postbacks of Schemas/Game.skan, signed with the test key, and the key to verify them with.
    static let signed: (path: String, key: String) = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "skanc-report-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let made = try! CLI.run([
            "simulate", "Schemas/Game.skan", "Tests/Fixtures/journeys/game.jsonl", "--postbacks", "--users", "200",
            "--campaigns", "3", "--tiers", "0:0.2,1:0.2,2:0.3,3:0.3", "--sign-with",
            "Tests/Fixtures/keys/rfc6979-test-key.pem",
        ])
        precondition(made.status == 0, made.stderr)
        let path = directory.appendingPathComponent("postbacks.jsonl").path
        try! made.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        let key = made.stderr.components(separatedBy: "public key is ").last!.components(separatedBy: " ").first!
        return (path, key)
    }()

    static func report(_ extra: [String], input: String = signed.path) throws -> CLIResult {
        try CLI.run(["report", "Schemas/Game.skan", input, "--public-key", signed.key] + extra)
    }

    @Test func jsonHasTheInterfacesShape() throws {
        let result = try Self.report(["--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let groups = try #require(root["groups"] as? [[String: Any]])
        #expect(!groups.isEmpty && (root["not_ok"] as? [String: Any])?.isEmpty == true)
        #expect(root["lines"] as? Int == root["ok"] as? Int)
        var total = 0
        for group in groups {
            let by = try #require(group["by"] as? [String: Any])
            #expect(by.keys.sorted() == ["ad_network_id", "source_identifier"])
            let windows = try #require(group["by_window"] as? [String: [String: Any]])
            #expect(Set(windows.keys) == ["1", "2", "3"])
            var postbacks = 0
            for window in windows.values {
                let count = try #require(window["postbacks"] as? Int)
                let parts = ["with_fine_value", "with_coarse_value", "without_value"].map { window[$0] as? Int ?? -1 }
                #expect(parts.reduce(0, +) == count)
                let fields = try #require(window["fields"] as? [String: [String: Int]])
                #expect(Set(fields.keys) == ["registered", "revenue", "funnel", "levels"])
                #expect(fields["revenue"]!.values.reduce(0, +) == parts[0])
                #expect(Set((window["coarse"] as? [String: Int])?.keys ?? [:].keys) == ["low", "medium", "high"])
                postbacks += count
            }
            #expect(group["postbacks"] as? Int == postbacks)
            total += postbacks
            let revenue = try #require((group["revenue"] as? [[String: Any]])?.first)
            #expect(revenue["field"] as? String == "revenue" && revenue["currency"] as? String == "USD")
            // With no fine-value postback the revenue is unknown: null, never 0.
            if revenue["postbacks"] as? Int == 0 {
                #expect(revenue["low"] is NSNull && revenue["mid"] is NSNull && revenue["high"] is NSNull)
                continue
            }
            let (low, mid) = (try #require(revenue["low"] as? Double), try #require(revenue["mid"] as? Double))
            #expect(low <= mid)
            // Game's top range, 20..., is open-ended: high is null once a postback shows it.
            let ranges = try #require(revenue["ranges"] as? [[String: Any]])
            let openShown = ranges.contains { $0["high"] is NSNull && ($0["postbacks"] as? Int ?? 0) > 0 }
            #expect(openShown == (revenue["high"] is NSNull))
        }
        #expect(total == root["ok"] as? Int)
    }

    /// A campaign as its network defines it: the 3 and 4 digits of high tiers fold into the campaign's 2; a
    /// campaign ID before SKAdNetwork 4.0 stays as written; `source_identifier` still shows the digits apart.
    @Test func theDefaultRowIsTheCampaignWhateverTheTier() throws {
        let directory = try TemporaryDirectory()
        let input = directory.url.appendingPathComponent("tiers.jsonl")
        let lines =
            ["52", "523", "5239", "61"].enumerated().map { index, source in
                #"{"version":"4.0","ad-network-id":"n.skadnetwork","source-identifier":"\#(source)","transaction-id":"t\#(index)","app-id":1,"attribution-signature":"x","redownload":false,"fidelity-type":1,"did-win":true,"postback-sequence-index":0}"#
            } + [
                #"{"version":"3.0","ad-network-id":"n.skadnetwork","campaign-id":7,"transaction-id":"t9","app-id":1,"attribution-signature":"x","redownload":false,"fidelity-type":1,"did-win":true}"#
            ]
        try lines.joined(separator: "\n").write(to: input, atomically: true, encoding: .utf8)
        func keys(_ by: [String]) throws -> [String: Int] {
            let result = try CLI.run(
                ["report", "Schemas/Game.skan", input.path, "--no-verify", "--format", "json"] + by)
            #expect(result.status == 0, "\(result.stderr)")
            let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            var keys: [String: Int] = [:]
            for group in try #require(root["groups"] as? [[String: Any]]) {
                let by = try #require(group["by"] as? [String: Any])
                let key = by.keys.sorted().filter { $0 != "ad_network_id" }.map { "\($0)=\(by[$0]!)" }.joined()
                keys[key] = group["postbacks"] as? Int
            }
            return keys
        }
        #expect(try keys([]) == ["source_identifier=52": 3, "source_identifier=61": 1, "campaign_id=7": 1])
        #expect(
            try keys(["--by", "ad_network_id,source_identifier"]) == [
                "source_identifier=52": 1, "source_identifier=523": 1, "source_identifier=5239": 1,
                "source_identifier=61": 1, "source_identifier=<null>": 1,
            ])
    }

    @Test func csvIsOneFigureARow() throws {
        // By the digits each postback shows, so that one group has no fine value (`revenue_unknown`).
        let result = try Self.report(["--format", "csv", "--by", "source_identifier,country_code"])
        #expect(result.status == 0)
        let rows = try StrictCSV.records(result.stdout)
        #expect(
            rows.first == [
                "source_identifier", "country_code", "window", "figure", "field", "item", "value",
            ])
        let figures = Set(rows.dropFirst().map { $0[3] })
        #expect(
            figures == [
                "postbacks", "contributed", "reengagements", "installs", "with_fine_value", "with_coarse_value",
                "without_value", "tier", "case", "coarse", "revenue_currency", "revenue_postbacks", "revenue_low",
                "revenue_mid", "revenue_high", "revenue_unknown", "installs_low",
                "installs_high", "estimate_installs", "estimate_mid", "estimate_low", "estimate_high",
                "installs_estimate_installs", "installs_estimate_mid", "installs_estimate_low",
                "installs_estimate_high",
            ])
        #expect(rows.allSatisfy { $0.count == 7 })
    }

    @Test func markdownAndHTMLSayWhatTheRevenueIs() throws {
        for format in ["markdown", "html"] {
            let result = try Self.report(["--format", format])
            #expect(result.status == 0)
            #expect(result.stdout.contains("range arithmetic on the buckets the postbacks show, not a model"))
            #expect(result.stdout.contains("Null rate by window"))
        }
        let page = try Self.report(["--format", "html"]).stdout
        // Self-contained: one inline script (the table's sorting), nothing fetched.
        #expect(
            page.components(separatedBy: "<script>").count == 2 && !page.contains(" src=") && !page.contains("<link"))
        #expect(page.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "").contains("http") == false)
    }

    /// Won and contributed apart: a contributing network's postback (`did-win: false`) is its own group, and
    /// `--by did_win` is accepted (it was a usage error).
    @Test func wonAndContributedArePartsOfTheKey() throws {
        let directory = try TemporaryDirectory()
        let won =
            #"{"version":"4.0","ad-network-id":"com.example","source-identifier":"5239","app-id":525463029,"transaction-id":"6aafb7a5-0170-41b5-bbe4-fe71dedf1e30","redownload":false,"source-domain":"example.com","fidelity-type":1,"did-win":true,"conversion-value":3,"postback-sequence-index":0}"#
        let contributed = won.replacingOccurrences(of: #""did-win":true"#, with: #""did-win":false"#)
            .replacingOccurrences(of: "e30\"", with: "e31\"").replacingOccurrences(
                of: #""conversion-value":3,"#, with: ""
            )
            .replacingOccurrences(of: #""source-domain":"example.com","#, with: "")  // no publisher for a non-winner
        let input = directory.url.appendingPathComponent("postbacks.jsonl")
        try (won + "\n" + contributed + "\n").write(to: input, atomically: true, encoding: .utf8)
        let result = try CLI.run([
            "report", "Schemas/Game.skan", input.path, "--no-verify", "--by", "campaign,did_win", "--format", "json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let groups = try #require(root["groups"] as? [[String: Any]])
        let keys = groups.compactMap { ($0["by"] as? [String: Any])?["did_win"] as? String }.sorted()
        #expect(keys == ["false", "true"])
        #expect(groups.allSatisfy { $0["postbacks"] as? Int == 1 })
        // By default the two are one group, and the contribution is counted apart: no install, no null.
        let merged = try CLI.run(["report", "Schemas/Game.skan", input.path, "--no-verify", "--format", "json"])
        let mergedRoot = try #require(
            try JSONSerialization.jsonObject(with: Data(merged.stdout.utf8)) as? [String: Any])
        let group = try #require((mergedRoot["groups"] as? [[String: Any]])?.first)
        let first = try #require((group["by_window"] as? [String: Any])?["1"] as? [String: Any])
        #expect(first["postbacks"] as? Int == 2 && first["contributed"] as? Int == 1 && first["installs"] as? Int == 1)
        #expect(first["without_value"] as? Int == 0 && first["reengagements"] as? Int == 0)
        let markdown = try CLI.run(["report", "Schemas/Game.skan", input.path, "--no-verify"]).stdout
        #expect(markdown.contains("| 2 | 1 | 1 | 0 | 100.0% | 0.0% | 0.0% |"), "\(markdown)")
    }

    /// Tier 0 is never claimed (two digits and no value are tier 0 or a tier-1 install whose app set no value:
    /// unknown); later windows' postbacks, all sent at tiers 1-3, say so instead of a bare "unknown".
    @Test func tierZeroIsNeverClaimedAndLaterWindowsSayWhatTheyMayBe() throws {
        let json = try Self.report(["--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let windows = (root["groups"] as? [[String: Any]] ?? []).compactMap { $0["by_window"] as? [String: Any] }
        func tiers(_ window: String) -> [String: Int] {
            windows.compactMap { ($0[window] as? [String: Any])?["tiers"] as? [String: Int] }.reduce(into: [:]) {
                $0.merge($1, uniquingKeysWith: +)
            }
        }
        // 200 users, a fifth of them at tier 0: their postbacks' tier is unknown, none is claimed as 0.
        #expect(tiers("1")["0"] == 0 && tiers("1")["unknown", default: 0] > 10, "\(tiers("1"))")
        #expect(tiers("2")["unknown", default: 0] > 0 && tiers("2")["0"] == 0, "\(tiers("2"))")
        let markdown = try Self.report([]).stdout
        #expect(markdown.contains("Tiers: 1-3 (not shown) "), "\(markdown)")
        #expect(!markdown.contains("Tiers: unknown"), "\(markdown)")
    }

    /// The campaign rollup: a tier-3 postback (`5239`), a tier-2 one (`523`) and a tier-0 one (`52`) of one campaign
    /// are one row by `source_identifier_2`; by `source_identifier_3` the two-digit one has no third digit.
    @Test func sourceIdentifierRollsUpToItsCampaign() throws {
        let directory = try TemporaryDirectory()
        let template =
            #"{"version":"4.0","ad-network-id":"one.skadnetwork","source-identifier":"SOURCE","app-id":525463029,"transaction-id":"6aafb7a5-0170-41b5-bbe4-fe71dedf1eID","redownload":false,"fidelity-type":1,"did-win":true,"postback-sequence-index":0}"#
        let lines = [("5239", "41"), ("523", "42"), ("52", "43"), ("61", "44")].map { source, id in
            template.replacingOccurrences(of: "SOURCE", with: source).replacingOccurrences(of: "eID", with: "e\(id)")
        }
        let input = directory.url.appendingPathComponent("postbacks.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        func keys(_ by: String) throws -> [String] {
            let result = try CLI.run([
                "report", "Schemas/Game.skan", input.path, "--no-verify", "--by", by, "--format", "json",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            return try #require(root["groups"] as? [[String: Any]]).map { group in
                let by = group["by"] as? [String: Any] ?? [:]
                return by.keys.sorted().map { "\($0)=\(by[$0] as? String ?? "-")" }.joined(separator: ",")
                    + ":\(group["postbacks"] as? Int ?? -1)"
            }
        }
        #expect(try keys("source_identifier_2") == ["source_identifier_2=52:3", "source_identifier_2=61:1"])
        #expect(
            try keys("source_identifier_2,source_identifier_3") == [
                "source_identifier_2=52,source_identifier_3=-:1", "source_identifier_2=52,source_identifier_3=523:2",
                "source_identifier_2=61,source_identifier_3=-:1",
            ])
    }

    /// A group whose postbacks carry no fine value knows nothing of its revenue: "unknown", never 0.00, and a
    /// heading that does not read "Revenue from revenue".
    @Test func revenueWithoutAFineValueIsUnknownNotZero() throws {
        let directory = try TemporaryDirectory()
        let coarse =
            #"{"version":"4.0","ad-network-id":"one.skadnetwork","source-identifier":"52","app-id":525463029,"transaction-id":"6aafb7a5-0170-41b5-bbe4-fe71dedf1e40","redownload":false,"fidelity-type":1,"did-win":true,"coarse-conversion-value":"high","postback-sequence-index":0}"#
        let input = directory.url.appendingPathComponent("postbacks.jsonl")
        try (coarse + "\n").write(to: input, atomically: true, encoding: .utf8)
        let result = try CLI.run(["report", "Schemas/Game.skan", input.path, "--no-verify"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("unknown: no postback of the group shows a fine value"), "\(result.stdout)")
        #expect(!result.stdout.contains("0.00 (0.00 to 0.00)"))
        #expect(!result.stdout.contains("Revenue from revenue"))
    }

    /// Where the coarse rules bound a field, a coarse-only postback gives that bound: Game's `high when revenue >=
    /// mid` makes a coarse `high` at least 5 (mid's lower bound), `medium` and `low` below 5; a postback with
    /// neither is at least 0 with no upper bound. Before, such a group showed no revenue at all.
    @Test func coarseRulesBoundTheRevenueOfCoarseOnlyPostbacks() throws {
        let directory = try TemporaryDirectory()
        let template =
            #"{"version":"4.0","ad-network-id":"one.skadnetwork","source-identifier":"52","app-id":525463029,"transaction-id":"6aafb7a5-0170-41b5-bbe4-fe71dedf1eID",COARSE"redownload":false,"fidelity-type":1,"did-win":true,"postback-sequence-index":0}"#
        func line(_ id: Int, _ coarse: String?) -> String {
            template.replacingOccurrences(of: "eID", with: "e\(id)").replacingOccurrences(
                of: "COARSE", with: coarse.map { #""coarse-conversion-value":"\#($0)","# } ?? "")
        }
        let input = directory.url.appendingPathComponent("postbacks.jsonl")
        let lines = [line(40, "high"), line(41, "high"), line(42, "low")]
        try (lines.joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        func installs(_ lines: [String]) throws -> [String: Any] {
            try (lines.joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
            let result = try CLI.run(["report", "Schemas/Game.skan", input.path, "--no-verify", "--format", "json"])
            #expect(result.status == 0, "\(result.stderr)")
            let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let group = try #require((root["groups"] as? [[String: Any]])?.first)
            let revenue = try #require((group["revenue"] as? [[String: Any]])?.first)
            return try #require(revenue["installs"] as? [String: Any])
        }
        let bounded = try installs(lines)
        #expect((bounded["low"] as? NSNumber)?.doubleValue == 10)
        #expect((bounded["high"] is NSNull))  // a coarse high has no upper bound: 20... is open-ended
        let shares = try #require(bounded["from_coarse"] as? [[String: Any]])
        #expect(shares.map { $0["coarse"] as? String } == ["low", "high"])
        #expect(shares.map { ($0["low"] as? NSNumber)?.doubleValue } == [0, 5])
        #expect(shares.map { ($0["high"] as? NSNumber)?.doubleValue } == [5, nil])
        // Coarse low only: at most 5, a hard upper bound.
        let low = try installs([line(42, "low")])
        #expect((low["low"] as? NSNumber)?.doubleValue == 0 && (low["high"] as? NSNumber)?.doubleValue == 5)
        // Neither: at least 0, no upper bound; nothing to estimate from.
        let none = try installs([line(43, nil)])
        #expect(none["without_value"] as? Int == 1 && none["high"] is NSNull)
        #expect(none["estimate_without_fine_value"] is NSNull)
        let text = try CLI.run(["report", "Schemas/Game.skan", input.path, "--no-verify"]).stdout
        #expect(text.contains("hard bounds: at least 0.00 USD"), "\(text)")
    }

    /// `--cost`: spend joined to each network's campaign (rolled up to the digits grouped by), cost per install
    /// over window-1 postbacks, return on ad spend over the revenue totals; spend no group has is noted; a
    /// grouping spend is not kept by is a usage error; a bad file an error at its line.
    @Test func costGivesSpendPerInstallAndReturnOnAdSpend() throws {
        let directory = try TemporaryDirectory()
        let template =
            #"{"version":"4.0","ad-network-id":"one.skadnetwork","source-identifier":"SOURCE","app-id":525463029,"transaction-id":"6aafb7a5-0170-41b5-bbe4-fe71dedf1eID","redownload":false,"fidelity-type":1,"did-win":true,VALUE"postback-sequence-index":0}"#
        // Game: fine value 4 is revenue `mid` (5..<20, mid-point 12.5); the `52` postback shows no fine value.
        let lines = [
            ("5239", "41", #""conversion-value":4,"#), ("523", "42", #""conversion-value":4,"#), ("52", "43", ""),
        ]
        .map { source, id, value in
            template.replacingOccurrences(of: "SOURCE", with: source).replacingOccurrences(of: "eID", with: "e\(id)")
                .replacingOccurrences(of: "VALUE", with: value)
        }
        let input = directory.url.appendingPathComponent("postbacks.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        let cost = directory.url.appendingPathComponent("cost.csv")
        try """
        network,campaign,day,spend,currency
        one.skadnetwork,5239,2026-12-01,40.00,USD
        one.skadnetwork,5239,2026-12-02,10.00,USD
        two.skadnetwork,5239,2026-12-01,7.50,USD

        """.write(to: cost, atomically: true, encoding: .utf8)
        let result = try CLI.run([
            "report", "Schemas/Game.skan", input.path, "--no-verify", "--by", "ad_network_id,source_identifier_2",
            "--cost", cost.path, "--format", "json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(root["cost_currency"] as? String == "USD")
        let group = try #require((root["groups"] as? [[String: Any]])?.first)
        let spent = try #require(group["cost"] as? [String: Any])
        #expect((spent["spend"] as? NSNumber)?.doubleValue == 50 && spent["rows"] as? Int == 2)
        #expect((spent["per_install"] as? NSNumber)?.doubleValue == 50.0 / 3)
        let ratio = try #require((spent["return_on_spend"] as? [[String: Any]])?.first)
        // Over all three installs, never over the two with a fine value alone: at least 5 + 5 + 0 = 10 USD, and no
        // upper bound (the third shows no value); the estimate apart, above the bound.
        #expect((ratio["low"] as? NSNumber)?.doubleValue == 10.0 / 50 && ratio["high"] is NSNull, "\(ratio)")
        let estimate = try #require((ratio["estimate"] as? NSNumber)?.doubleValue)
        #expect(estimate >= 10.0 / 50 && ratio["mid"] == nil)
        let notes = root["notes"] as? [String] ?? []
        #expect(notes.contains { $0.hasPrefix("1 cost row (7.50 USD) matches no group") }, "\(notes)")
        // CSV has no notes: the rows that match no group are rows of their own, with no group.
        let csv = try CLI.run([
            "report", "Schemas/Game.skan", input.path, "--no-verify", "--by", "ad_network_id,source_identifier_2",
            "--cost", cost.path, "--format", "csv",
        ]).stdout
        #expect(csv.contains("\r\n,,,cost_unmatched_spend,,USD,7.5\r\n,,,cost_unmatched_rows,,,1\r\n"), "\(csv)")
        let markdown = try CLI.run([
            "report", "Schemas/Game.skan", input.path, "--no-verify", "--by", "ad_network_id,source_identifier_2",
            "--cost", cost.path,
        ]).stdout
        #expect(
            markdown.contains("| one.skadnetwork / 52 | 3 | 50.00 | 16.67 | at least 20.0%; estimate "), "\(markdown)")
        let usage = try CLI.run([
            "report", "Schemas/Game.skan", input.path, "--no-verify", "--by", "campaign", "--cost", cost.path,
        ])
        #expect(usage.status == 64 && usage.stderr.contains("group by ad_network_id"))
        try "network,campaign,day,spend,currency\none.skadnetwork,5239,yesterday,1,USD\n".write(
            to: cost, atomically: true, encoding: .utf8)
        let bad = try CLI.run(["report", "Schemas/Game.skan", input.path, "--no-verify", "--cost", cost.path])
        #expect(bad.status == 1 && bad.stdout.isEmpty)
        #expect(
            bad.stderr.contains("cost.csv:2:1: error: the day is written 2026-12-03")
                && bad.stderr.contains("[cost-invalid]"))
    }

    /// Two ad networks' campaigns that share a source identifier stay two groups by default (they merged when
    /// the default was the campaign alone).
    /// `--names`: each campaign row with the team's name for it (finer digits naming the campaign they fold
    /// into), in every format; a bad file is an error at its line; names need a network and campaign grouping.
    @Test func namesGoWithTheirCampaigns() throws {
        let directory = try TemporaryDirectory()
        let input = directory.url.appendingPathComponent("postbacks.jsonl")
        let line =
            #"{"version":"4.0","ad-network-id":"one.skadnetwork","source-identifier":"SOURCE","app-id":1,"transaction-id":"ID","redownload":false,"fidelity-type":1,"did-win":true,"postback-sequence-index":0}"#
        try ["5239", "61"].map {
            line.replacingOccurrences(of: "SOURCE", with: $0).replacingOccurrences(of: "ID", with: "t\($0)")
        }.joined(separator: "\n").write(to: input, atomically: true, encoding: .utf8)
        let names = directory.url.appendingPathComponent("names.csv")
        try "network,campaign,name\none.skadnetwork,5239,Summer <sale>\ntwo.skadnetwork,61,Other network\n".write(
            to: names, atomically: true, encoding: .utf8)
        func report(_ extra: [String]) throws -> CLIResult {
            try CLI.run(["report", "Schemas/Game.skan", input.path, "--no-verify", "--names", names.path] + extra)
        }
        let json = try report(["--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let groups = try #require(root["groups"] as? [[String: Any]])
        #expect(groups.map { $0["name"] as? String } == ["Summer <sale>", nil])
        #expect(try report([]).stdout.contains("| Summer &lt;sale&gt; (one.skadnetwork / 52) |"))
        #expect(try report(["--format", "html"]).stdout.contains("Summer &lt;sale&gt; (one.skadnetwork / 52)"))
        let wide = try report(["--format", "csv", "--wide"]).stdout
        #expect(wide.hasPrefix("ad_network_id,source_identifier,campaign_id,name,installs,"), "\(wide)")
        #expect(wide.contains(",Summer <sale>,"))
        try "network,campaign,name\none.skadnetwork,52,A\none.skadnetwork,52,B\n".write(
            to: names, atomically: true, encoding: .utf8)
        let twice = try report([])
        #expect(twice.status == 1 && twice.stderr.contains("names.csv:3:1: error: this network and campaign are named"))
        #expect(twice.stderr.contains("[names-invalid]"))
        let usage = try report(["--by", "country_code"])
        #expect(usage.status == 64 && usage.stderr.contains("--names: spend is per network"), "\(usage.stderr)")
    }

    @Test func eachNetworksCampaignsAreApartByDefault() throws {
        let directory = try TemporaryDirectory()
        let first =
            #"{"version":"4.0","ad-network-id":"one.skadnetwork","source-identifier":"5239","app-id":525463029,"transaction-id":"6aafb7a5-0170-41b5-bbe4-fe71dedf1e30","redownload":false,"fidelity-type":1,"did-win":true,"conversion-value":3,"postback-sequence-index":0}"#
        let second = first.replacingOccurrences(of: "one.skadnetwork", with: "two.skadnetwork")
            .replacingOccurrences(of: "e30\"", with: "e31\"")
        let input = directory.url.appendingPathComponent("postbacks.jsonl")
        try (first + "\n" + second + "\n").write(to: input, atomically: true, encoding: .utf8)
        let result = try CLI.run(["report", "Schemas/Game.skan", input.path, "--no-verify", "--format", "json"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let groups = try #require(root["groups"] as? [[String: Any]])
        let networks = groups.compactMap { ($0["by"] as? [String: Any])?["ad_network_id"] as? String }.sorted()
        #expect(networks == ["one.skadnetwork", "two.skadnetwork"])
        #expect(root["grouped_by"] as? [String] == ["ad_network_id", "campaign"])
    }

    /// `--by day`: the UTC day of each postback's receipt time, read from the `.times` file beside a segment;
    /// a file without receipt times is a usage error that says where they are.
    @Test func byDayReadsTheReceiptTimes() throws {
        let directory = try TemporaryDirectory()
        let lines = try String(contentsOfFile: Self.signed.path, encoding: .utf8).split(separator: "\n").prefix(30)
        let segment = directory.url.appendingPathComponent("receiver-1.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(to: segment, atomically: true, encoding: .utf8)
        let refused = try Self.report(["--by", "day"], input: segment.path)
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--by day needs receipt times"))
        // Ten postbacks a day over three days, 23:59:59 and the next midnight on either side of a day's end.
        let times = (0..<30).map { (index: Int) -> String in
            let second = index % 10 == 9 ? 86_399 : index
            return String(1_764_633_600 + (index / 10) * 86_400 + second) + "\n"
        }
        try times.joined().write(
            to: directory.url.appendingPathComponent("receiver-1.times"), atomically: true, encoding: .utf8)
        let result = try Self.report(["--by", "day", "--format", "json"], input: segment.path)
        #expect(result.status == 0, "\(result.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let groups = try #require(root["groups"] as? [[String: Any]])
        let days = groups.map { (($0["by"] as? [String: Any])?["day"] as? String) ?? "none" }.sorted()
        #expect(days == ["2025-12-02", "2025-12-03", "2025-12-04"])
        #expect(groups.allSatisfy { $0["postbacks"] as? Int == 10 })
        let csv = try Self.report(["--by", "day,campaign", "--format", "csv"], input: segment.path)
        #expect(csv.stdout.hasPrefix("day,source_identifier,campaign_id,"))
    }

    @Test func rowsThatAreNotOKAreCountedAndSaid() throws {
        // Without the test key every postback fails verification: none is dropped, each is counted by status.
        let result = try CLI.run(["report", "Schemas/Game.skan", Self.signed.path, "--format", "json"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("were not ok (bad-signature"))
        // A diagnostic like every other: the input, the severity and the code.
        #expect(result.stderr.hasPrefix("\(Self.signed.path): warning: "))
        #expect(result.stderr.contains("[rows-not-ok]"))
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect((root["groups"] as? [Any])?.isEmpty == true)
        #expect((root["not_ok"] as? [String: Int])?["bad-signature"] == root["lines"] as? Int)
    }

    @Test func mistakesGetUsageErrors() throws {
        let cases: [([String], String)] = [
            (["report"], "name the schema"),
            (["report", "Schemas/Game.skan", "-", "--by", "campaign,campaign"], "--by names 'campaign' twice"),
            (["report", "Schemas/Game.skan", "-", "--by", "campaign,nope"], "--by takes groupings (campaign, "),
            (["report", "Schemas/Game.skan", "-", "--by", "campaign,"], "separated by commas, not an empty item"),
            (["report", "Schemas/Game.skan", "-", "--by", "Campaign"], "separated by commas, not 'Campaign'"),
            (
                ["report", "Schemas/Game.skan", "-", "--by", "install_day,install_day"],
                "--by names 'install_day' twice"
            ),
            (
                ["sql", "Schemas/Game.skan", "--dialect", "duckdb", "--report", "--by", "install_day"],
                "in 'skanc report' only"
            ),
            (["report", "Schemas/Game.skan", "-", "--public-key", "rsa=AAAA"], "not 'rsa=AAAA': the kinds are"),
            (["report", "Schemas/Game.skan", "-", "--by", "schema_version"], "needs versions live together"),
            (["report", "Schemas/Game.skan", "-", "--format", "pdf"], "pdf"),
            (["report", "Schemas/Game.skan", "-", "-o", "a", "--output", "b"], "--output given twice"),
            (["report", "Schemas/Game.skan", "-", "--no-verify", "--allow-development"], "--no-verify"),
        ]
        for (arguments, message) in cases {
            let result = try CLI.run(arguments, stdin: "")
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        let missing = try CLI.run(["report", "Schemas/Game.skan", "no-such-file.jsonl"])
        #expect(missing.status == 1 && missing.stderr.contains("no such file; check the path [file-unreadable]"))
    }

    @Test func outputGoesToTheFileNamed() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("report.md").path
        let result = try Self.report(["-o", path])
        #expect(result.status == 0 && result.stdout.isEmpty)
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("# Postback report: Game version 2"))
    }

    /// The page as headless Chromium parses it (Scripts/report-screenshot.sh, which makes the README's image):
    /// the three charts with their bars, intervals and mid-points, and a screenshot at a laptop's 1700 x 1100.
    @Test func aBrowserRendersTheCharts() throws {
        let probe = try CLI.run(["chromium", "--version"], executable: URL(fileURLWithPath: "/usr/bin/env"))
        try #require(
            probe.status == 0,
            "chromium is not installed; install it with `apt-get install -y chromium`, or run `bash .ci/run`")
        let script = CLI.packageRoot.appendingPathComponent("Scripts/report-screenshot.sh").path
        let environment = ProcessInfo.processInfo.environment.merging(["SKANC": CLI.executable.path]) { $1 }
        let directory = try TemporaryDirectory()
        let png = directory.url.appendingPathComponent("report.png")
        let jsonPath = directory.url.appendingPathComponent("report.json").path
        let dom = try ChildProcess.run(
            try ChildProcess.onPath("bash"), [script, png.path],
            environment: environment.merging(["SKANC_DOM": "1", "SKANC_JSON": jsonPath]) { $1 })
        #expect(dom.status == 0, "\(dom.stderr)")
        try Self.firstScreenEqualsTheJSON(dom.stdout, json: jsonPath)
        for chart in ["chart-postbacks", "chart-null-rate", "chart-revenue-revenue", "chart-trend"] {
            let start = try #require(dom.stdout.range(of: "<svg id=\"\(chart)\""), "\(chart) is missing")
            let rest = dom.stdout[start.upperBound...]
            let svg = String(rest[..<(rest.range(of: "</svg>")?.lowerBound ?? rest.endIndex)])
            let marks =
                chart == "chart-revenue-revenue" ? ["<line class=\"interval", "<circle class=\"mid\""] : ["<rect"]
            for mark in marks { #expect(svg.components(separatedBy: mark).count > 3, "\(chart): \(mark)") }
            // Numbers on the bars, and every label's whole text as its tooltip.
            #expect(svg.components(separatedBy: "<text class=\"value\"").count > 3, "\(chart): numbers on bars")
            // The trend's rows are days, in date order; the others' are groups of two keys.
            if chart == "chart-trend" {
                // Each day is the label's text and its tooltip: the distinct days, in their order.
                let labels = svg.components(separatedBy: ">2026-").dropFirst().map { String($0.prefix(5)) }
                let days = labels.reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
                #expect(days.count == 14 && days == days.sorted(), "\(chart): \(days)")
                continue
            }
            #expect(svg.contains("skadnetwork / "), "\(chart): two-key labels")
            #expect(!svg.contains("skadnetwork …"), "\(chart): a two-key label cut")
        }
        // The answer first: totals, the trend, then the groups' table, then the charts; each group's detail folded.
        let order = [
            "<div class=\"totals\">", "<svg id=\"chart-trend\"", "<h2>Groups</h2>", "<svg id=\"chart-postbacks\"",
            "<h2>Each group</h2>",
        ]
        let positions = try order.map { try #require(dom.stdout.range(of: $0)?.lowerBound, "\($0) is missing") }
        #expect(positions == positions.sorted())
        #expect(dom.stdout.components(separatedBy: "<details>").count > 10)
        #expect(dom.stdout.contains("installs won"))
        let bytes = try [UInt8](Data(contentsOf: png))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == 1700 && height == 1100)
        #expect(bytes.count > 20_000, "a blank page compresses to far less")
    }
}

extension ReportCommandTests {
    /// The page's first screen says what the JSON says: the tiles' installs, spend and revenue estimate are the
    /// JSON's totals, each campaign row's installs and spend its group's, and the trend's days add up to the
    /// installs.
    static func firstScreenEqualsTheJSON(_ dom: String, json path: String) throws {
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let groups = try #require(root["groups"] as? [[String: Any]])
        func number(_ value: Any?) -> Double { (value as? NSNumber)?.doubleValue ?? .nan }
        func installs(_ group: [String: Any]) -> Int {
            ((group["by_window"] as? [String: Any])?["1"] as? [String: Any])?["installs"] as? Int ?? -1
        }
        let total = groups.reduce(0) { $0 + installs($1) }
        let spend = groups.reduce(0.0) { $0 + number(($1["cost"] as? [String: Any])?["spend"]) }
        let estimate = groups.reduce(0.0) { sum, group in
            let revenue = (group["revenue"] as? [[String: Any]])?.first
            return sum + number(((revenue?["installs"] as? [String: Any])?["estimate"] as? [String: Any])?["mid"])
        }
        func tile(_ label: String) -> String? {
            guard let start = dom.range(of: "<div>\(label)<b>") else { return nil }
            let rest = dom[start.upperBound...]
            return rest.range(of: "</b>").map { String(rest[..<$0.lowerBound]) }
        }
        func amount(_ text: String?) -> Double {
            Double(
                (text ?? "").prefix { $0.isNumber || $0 == "," || $0 == "." }.replacingOccurrences(of: ",", with: ""))
                ?? .nan
        }
        #expect(amount(tile("installs won")) == Double(total))
        #expect(abs(amount(tile("spend")) - spend) < 0.005, "\(tile("spend") ?? "no spend tile") against \(spend)")
        let estimateTile = tile("revenue, all installs, revenue (estimate, prior)")
        #expect(abs(amount(estimateTile) - estimate) < 0.01, "\(estimateTile ?? "none") against \(estimate)")
        // Each campaign row: its label, then its installs (`data-sort`), as its group's in the JSON.
        for group in groups {
            let by = try #require(group["by"] as? [String: Any])
            let campaign = (by["source_identifier"] as? String) ?? (by["campaign_id"] as? String) ?? "(none)"
            let label = "\(by["ad_network_id"] as? String ?? "(none)") / \(campaign)"
            let row = try #require(dom.range(of: "<tr><td>\(label)</td>"), "no row for \(label)")
            let cell = try #require(dom[row.upperBound...].range(of: "data-sort=\""))
            let value = dom[cell.upperBound...].prefix { $0 != "\"" }
            #expect(Double(value) == Double(installs(group)), "\(label)")
        }
        let trend = try #require(root["trend"] as? [[String: Any]])
        #expect(trend.reduce(0) { $0 + ($1["installs"] as? Int ?? 0) } == total)
    }
}

/// Amounts in the human formats with their currency's own decimals: yen without any, dollars with two.
@Suite struct ReportCurrencyDecimalsTests {
    @Test func yenHaveNoDecimalsAndDollarsTwo() throws {
        let directory = try TemporaryDirectory()
        let game = try String(contentsOfFile: "Schemas/Game.skan", encoding: .utf8)
        let yenSchema = directory.url.appendingPathComponent("GameYen.skan").path
        try game.replacingOccurrences(of: "value USD", with: "value JPY").write(
            toFile: yenSchema, atomically: true, encoding: .utf8)
        for (schema, currency) in [("Schemas/Game.skan", "USD"), (yenSchema, "JPY")] {
            let made = try CLI.run([
                "simulate", schema, "Tests/Fixtures/journeys/game.jsonl", "--postbacks", "--users", "60",
                "--campaigns", "2", "--tiers", "3:1", "--sign-with", "Tests/Fixtures/keys/rfc6979-test-key.pem",
            ])
            try #require(made.status == 0, "\(made.stderr)")
            let key = made.stderr.components(separatedBy: "public key is ").last!.components(separatedBy: " ").first!
            let postbacks = directory.url.appendingPathComponent("\(currency).jsonl").path
            try made.stdout.write(toFile: postbacks, atomically: true, encoding: .utf8)
            let report = try CLI.run(["report", schema, postbacks, "--format", "markdown", "--public-key", key])
            try #require(report.status == 0, "\(report.stderr)")
            // Every amount followed by the currency: `1,234.51 USD`, `(0.01 to 4.99) USD`, `1,235 JPY`.
            let pattern = try Regex("([0-9][0-9,]*(?:\\.[0-9]+)?)\\)? \(currency)")
            let amounts = report.stdout.matches(of: pattern).compactMap { $0.output[1].substring.map(String.init) }
            #expect(amounts.count > 3, "\(report.stdout)")
            for amount in amounts {
                let decimals = amount.split(separator: ".").dropFirst().first?.count ?? 0
                #expect(decimals == (currency == "JPY" ? 0 : 2), "\(currency): \(amount)")
            }
        }
    }
}
