import Foundation
import SkanTestSupport
import Testing

/// `skanc postbacks --schemas DIR` over a folder of many apps: each postback is decoded by its own app's published
/// versions, routed by its app ID; a postback of an app with no folder is kept as `unknown-app`; `report` and
/// `sql` refuse the folder with what to name instead.
@Suite struct ManyAppsDecodingTests {

    @Test func eachPostbackIsDecodedByItsOwnAppsVersions() throws {
        let setup = try PublishCommandTests.Setup()
        #expect(try setup.publish(["Schemas/Game.skan"], app: "111").status == 0)
        #expect(try setup.publish(["Schemas/Shop.skan"], app: "222").status == 0)
        #expect(try setup.publish(["Tests/SkanCompilerTests/Fixtures/ShopMarked.skan"], app: "222").status == 0)
        let shopJourney = setup.directory.url.appendingPathComponent("shop.jsonl")
        try "{\"hour\": 1, \"set\": {\"paymentTier\": \"medium\", \"registered\": \"true\"}}\n{\"hour\": 60}\n".write(
            to: shopJourney, atomically: true, encoding: .utf8)
        // Game's postbacks for app 111, both Shop versions' for app 222 (AdAttributionKit's for one of them), and
        // one postback of an app no folder is for.
        var lines: [String] = []
        for (schema, journey, app, framework, seed) in [
            ("Schemas/Game.skan", "Tests/Fixtures/journeys/game.jsonl", "111", "skadnetwork", "1"),
            ("Schemas/Shop.skan", shopJourney.path, "222", "adattributionkit", "2"),
            ("Tests/SkanCompilerTests/Fixtures/ShopMarked.skan", shopJourney.path, "222", "skadnetwork", "3"),
        ] {
            let made = try CLI.run([
                "simulate", schema, journey, "--postbacks", "--users", "25", "--seed", seed, "--framework", framework,
                "--app", app,
            ])
            try #require(made.status == 0, "\(made.stderr)")
            lines += made.stdout.split(separator: "\n").map(String.init)
        }
        // The same SKAdNetwork postback of app 111, said to be of app 333 (unsigned: read with --no-verify).
        let unknown = lines[0].replacingOccurrences(of: "\"app-id\":111", with: "\"app-id\":333")
        #expect(unknown != lines[0])
        lines.append(unknown)
        let postbacks = setup.directory.url.appendingPathComponent("postbacks.jsonl").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: postbacks, atomically: true, encoding: .utf8)

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
        let last = try #require(rows.last)
        #expect(last["status"] as? String == "unknown-app" && last["app_id"] as? Int == 333)
        #expect(last["funnel"] is NSNull && last["registered"] is NSNull && last["schema_version"] is NSNull)

        let summary = try CLI.run(["postbacks", "--schemas", setup.out, postbacks, "--no-verify", "--summary-only"])
        #expect(summary.stdout.contains("unknown-app: 1"), "\(summary.stdout)")
        #expect(summary.stdout.contains("app 111 (Game)") && summary.stdout.contains("app 222 (Shop"))

        for command in [["report"], ["sql", "--dialect", "duckdb"]] {
            let refused = try CLI.run(command + ["--schemas", setup.out] + (command == ["report"] ? [postbacks] : []))
            #expect(refused.status == 64, "\(command)")
            #expect(refused.stderr.contains("holds the schemas of 2 apps (111, 222)"), "\(refused.stderr)")
            #expect(refused.stderr.contains(setup.out + "/111"), "\(refused.stderr)")
        }
    }
}
