import Foundation
import SkanTestSupport
import Testing

/// `skanc postbacks --schemas DIR` over a folder of many apps: each postback is decoded by its own app's published
/// versions, routed by its app ID; a postback of an app with no folder is kept as `unknown-app`; `report` gives
/// each app's report; `sql` decodes it (WarehouseSQLTests), and `sql --report` refuses the folder with what to
/// name instead.
@Suite struct ManyAppsDecodingTests {

    /// A folder of two apps' published schemas and postbacks for both: Game's for app 111, both Shop versions'
    /// for app 222 (AdAttributionKit's for one of them), then one of app 333, which no folder is for, and app IDs
    /// written as JSON allows (`111.0`, `1.11e2`: app 111) or as it does not route (`-111`, `"111"`).
    struct Fixture {
        let setup: PublishCommandTests.Setup
        /// The postbacks file.
        let postbacks: String
        let lines: [String]

        init() throws {
            setup = try PublishCommandTests.Setup()
            #expect(try setup.publish(["Schemas/Game.skan"], app: "111").status == 0)
            #expect(try setup.publish(["Schemas/Shop.skan"], app: "222").status == 0)
            #expect(try setup.publish(["Tests/SkanCompilerTests/Fixtures/ShopMarked.skan"], app: "222").status == 0)
            let shopJourney = setup.directory.url.appendingPathComponent("shop.jsonl")
            try "{\"hour\": 1, \"set\": {\"paymentTier\": \"medium\", \"registered\": \"true\"}}\n{\"hour\": 60}\n"
                .write(to: shopJourney, atomically: true, encoding: .utf8)
            var lines: [String] = []
            for (schema, journey, app, framework, seed) in [
                ("Schemas/Game.skan", "Tests/Fixtures/journeys/game.jsonl", "111", "skadnetwork", "1"),
                ("Schemas/Shop.skan", shopJourney.path, "222", "adattributionkit", "2"),
                ("Tests/SkanCompilerTests/Fixtures/ShopMarked.skan", shopJourney.path, "222", "skadnetwork", "3"),
            ] {
                let made = try CLI.run([
                    "simulate", schema, journey, "--postbacks", "--users", "25", "--seed", seed, "--framework",
                    framework, "--app", app,
                ])
                try #require(made.status == 0, "\(made.stderr)")
                lines += made.stdout.split(separator: "\n").map(String.init)
            }
            // The same SKAdNetwork postback of app 111, said to be of app 333 (unsigned: read with --no-verify).
            let unknown = lines[0].replacingOccurrences(of: "\"app-id\":111", with: "\"app-id\":333")
            #expect(unknown != lines[0])
            lines.append(unknown)
            // Game's first postback again (a fine value), under a transaction ID of its own.
            for (index, written) in ["111.0", "1.11e2", "-111", "\"111\""].enumerated() {
                lines.append(
                    lines[0].replacingOccurrences(of: "\"app-id\":111", with: "\"app-id\":\(written)")
                        .replacingOccurrences(of: "\"transaction-id\":\"", with: "\"transaction-id\":\"\(index)-"))
            }
            postbacks = setup.directory.url.appendingPathComponent("postbacks.jsonl").path
            try (lines.joined(separator: "\n") + "\n").write(toFile: postbacks, atomically: true, encoding: .utf8)
            self.lines = lines
        }
    }

    @Test func eachPostbackIsDecodedByItsOwnAppsVersions() throws {
        let fixture = try Fixture()
        let (setup, postbacks, lines) = (fixture.setup, fixture.postbacks, fixture.lines)
        let all = try CLI.run(["postbacks", "--schemas", setup.out, postbacks, "--no-verify", "--format", "jsonl"])
        #expect(all.status == 1, "one postback is of an unknown app: \(all.stderr)")
        let rows = try JSONLines.objects(all.stdout)
        try #require(rows.count == lines.count)
        // Each app's rows are what its own folder decodes, field for field (the other app's fields empty).
        for app in ["111", "222"] {
            let own = try CLI.run([
                "postbacks", "--schemas", setup.out + "/" + app, postbacks, "--no-verify", "--format", "jsonl",
            ])
            for (index, single) in try JSONLines.objects(own.stdout).enumerated()
            where "\(rows[index]["app_id"]!)" == app {
                #expect(rows[index]["status"] as? String == "ok", "line \(index + 1)")
                for (column, value) in single where column != "schema_version" {
                    #expect("\(rows[index][column]!)" == "\(value)", "line \(index + 1) \(column)")
                }
                if single["fine_value"] is Int {
                    #expect(rows[index]["schema_version"] as? Int != nil, "line \(index + 1)")
                }
            }
        }
        let decoded = rows.filter { $0["fine_value"] is Int && $0["status"] as? String == "ok" }
        #expect(Set(decoded.compactMap { $0["schema_version"] as? Int }) == [2, 3, 4], "Game 2, Shop 3 and 4")
        #expect(decoded.contains { $0["funnel"] is String } && decoded.contains { $0["payment_tier"] is String })
        let unknown = rows[rows.count - 5]
        #expect(unknown["status"] as? String == "unknown-app" && unknown["app_id"] as? Int == 333)
        #expect(unknown["funnel"] is NSNull && unknown["registered"] is NSNull && unknown["schema_version"] is NSNull)
        // 111.0 and 1.11e2 are app 111, as JSON reads them; -111 is no app's, and "111" is no number.
        #expect(
            rows.suffix(4).map { $0["status"] as? String } == ["ok", "ok", "unknown-app", "wrong-type"],
            "\(rows.suffix(4))")
        #expect(rows.suffix(4).first?["funnel"] as? String == rows[0]["funnel"] as? String)
        #expect(rows[0]["funnel"] is String)

        let summary = try CLI.run(["postbacks", "--schemas", setup.out, postbacks, "--no-verify", "--summary-only"])
        #expect(summary.stdout.contains("unknown-app: 2"), "\(summary.stdout)")
        #expect(summary.stdout.contains("app 111 (Game)") && summary.stdout.contains("app 222 (Shop"))

        let refused = try CLI.run(["sql", "--dialect", "duckdb", "--report", "--schemas", setup.out])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("holds the schemas of 2 apps (111, 222)"), "\(refused.stderr)")
        #expect(refused.stderr.contains(setup.out + "/111"), "\(refused.stderr)")
    }

    /// `report --schemas DIR`: each app's report is the report `--schemas DIR/APP_ID` gives over that app's lines
    /// alone (its groups keyed by `app_id` first, as the app routes them: `111.0` is app 111), and the lines of no
    /// app's are counted apart. What reads one app's report (a cost file, checks, HTML) is refused with the folder
    /// to name.
    @Test func eachAppsReportIsItsOwnFoldersReport() throws {
        let fixture = try Fixture()
        let (setup, postbacks) = (fixture.setup, fixture.postbacks)
        let many = try CLI.run(["report", "--schemas", setup.out, postbacks, "--no-verify", "--format", "json"])
        #expect(many.status == 0, "\(many.stderr)")
        #expect(many.stderr.contains("no app: wrong-type 1, unknown-app 2"), "\(many.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(many.stdout.utf8)) as? [String: Any])
        let apps = try #require(report["apps"] as? [[String: Any]])
        #expect(apps.map { $0["schema"] as? String } == ["Game", "ShopMarked"])
        #expect(report["lines"] as? Int == fixture.lines.count)
        let without = try #require(report["without_app"] as? [String: Any])
        #expect(without["lines"] as? Int == 3)

        // Each line's app, as `postbacks --schemas DIR` routes it (none for an unknown app or a string ID); a row
        // shows an app ID written `111.0` or `1.11e2` as 111, the app that decoded it.
        let rows = try JSONLines.objects(
            try CLI.run(["postbacks", "--schemas", setup.out, postbacks, "--no-verify", "--format", "jsonl"]).stdout)
        func app(_ line: String, _ row: [String: Any]) -> Int? {
            guard !["unknown-app", "wrong-type"].contains(row["status"] as? String) else { return nil }
            if let id = row["app_id"] as? NSNumber { return id.intValue }
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return (object?["app-id"] as? NSNumber)?.intValue
        }
        #expect(rows.suffix(4).prefix(2).map { $0["app_id"] as? Int } == [111, 111], "\(rows.suffix(4))")
        #expect(zip(fixture.lines, rows).filter { $0.1["app_id"] is NSNull && app($0.0, $0.1) != nil }.isEmpty)
        let csv = try CLI.run(["report", "--schemas", setup.out, postbacks, "--no-verify", "--format", "csv"])
        #expect(csv.status == 0, "\(csv.stderr)")
        let table = csv.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(table.first?.hasPrefix("app_id,ad_network_id,source_identifier,campaign_id,window,figure") == true)
        // The lines of no app's: `not_ok` rows keyed by nothing.
        #expect(
            table.filter { $0.hasPrefix(",,,,,not_ok,,") } == [
                ",,,,,not_ok,,wrong-type,1", ",,,,,not_ok,,unknown-app,2",
            ])
        for (index, appID) in [111, 222].enumerated() {
            let own = zip(fixture.lines, rows).filter { app($0.0, $0.1) == appID }.map(\.0)
            let file = setup.directory.url.appendingPathComponent("\(appID).jsonl").path
            try (own.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
            let single = try CLI.run([
                "report", "--schemas", setup.out + "/\(appID)", file, "--no-verify", "--format", "json",
            ])
            // The app's CSV rows, its `not_ok` ones too, are one app's report's rows with `app_id` before them.
            let singleCSV = try CLI.run([
                "report", "--schemas", setup.out + "/\(appID)", file, "--no-verify", "--format", "csv",
            ])
            let appRows = table.dropFirst().filter { $0.hasPrefix("\(appID),") }.map {
                String($0.dropFirst("\(appID),".count))
            }
            #expect(
                !appRows.isEmpty
                    && appRows
                        == Array(singleCSV.stdout.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty })
            )
            var alone = try #require(try JSONSerialization.jsonObject(with: Data(single.stdout.utf8)) as? [String: Any])
            var routed = apps[index]
            #expect((routed["groups"] as? [Any])?.isEmpty == false, "app \(appID) has groups")
            // Grouped by app first, then as one app's report groups.
            #expect(routed["grouped_by"] as? [String] == ["app_id", "ad_network_id", "campaign"])
            var groups = routed["groups"] as! [[String: Any]]
            for group in groups.indices {
                var by = groups[group]["by"] as! [String: Any]
                #expect(by.removeValue(forKey: "app_id") as? String == "\(appID)")
                groups[group]["by"] = by
            }
            routed["groups"] = groups
            routed["grouped_by"] = nil
            alone["grouped_by"] = nil
            let (routedJSON, aloneJSON) = (
                try JSONSerialization.data(withJSONObject: routed, options: .sortedKeys),
                try JSONSerialization.data(withJSONObject: alone, options: .sortedKeys)
            )
            #expect(
                routedJSON == aloneJSON,
                "app \(appID): \(String(decoding: routedJSON, as: UTF8.self).prefix(600))\n\(String(decoding: aloneJSON, as: UTF8.self).prefix(600))"
            )
        }

        let markdown = try CLI.run(["report", "--schemas", setup.out, postbacks, "--no-verify"])
        #expect(
            markdown.stdout.contains("# Postback report: Game") && markdown.stdout.contains("# Postback report: Shop"))
        #expect(markdown.stdout.contains("| unknown-app | 2 |"), "\(markdown.stdout.suffix(400))")
        for refusedOptions in [
            ["--format", "html"], ["--check", "rules.txt"], ["--by", "install_day"], ["--format", "csv", "--wide"],
        ] {
            let refused = try CLI.run(["report", "--schemas", setup.out, postbacks, "--no-verify"] + refusedOptions)
            #expect(refused.status == 64, "\(refusedOptions)")
            #expect(refused.stderr.contains(setup.out + "/APP_ID"), "\(refused.stderr)")
        }
    }
}
