import Foundation
import SkanTestSupport
import Testing

/// `skanc serve --schemas DIR` of many apps' published schemas: `/report` counts each postback for its own app,
/// as `skanc report --schemas DIR` over the same postbacks does, and says which formats it takes.
@Suite struct ServeManyAppsTests {
    @Test func theReportIsEachAppsAsTheCommandsIs() throws {
        let setup = try PublishCommandTests.Setup()
        #expect(try setup.publish(["Schemas/Game.skan"], app: "111").status == 0)
        #expect(try setup.publish(["Schemas/Shop.skan"], app: "222").status == 0)
        let shopJourney = setup.directory.url.appendingPathComponent("shop.jsonl")
        try "{\"hour\": 1, \"set\": {\"paymentTier\": \"high\", \"registered\": \"true\"}}\n{\"hour\": 60}\n".write(
            to: shopJourney, atomically: true, encoding: .utf8)
        var lines: [String] = []
        var keys: [String] = []
        var unknownLines = 0
        for (schema, journey, app, seed) in [
            ("Schemas/Game.skan", "Tests/Fixtures/journeys/game.jsonl", "111", "4"),
            ("Schemas/Shop.skan", shopJourney.path, "222", "5"),
            ("Schemas/Game.skan", "Tests/Fixtures/journeys/game.jsonl", "333", "6"),
        ] {
            let made = try CLI.run([
                "simulate", schema, journey, "--postbacks", "--users", "15", "--seed", seed, "--app", app,
                "--sign-with", "Tests/Fixtures/keys/rfc6979-test-key.pem",
            ])
            try #require(made.status == 0, "\(made.stderr)")
            let produced = made.stdout.split(separator: "\n").map(String.init)
            lines += produced
            if app == "333" { unknownLines = produced.count }
            let key = try #require(made.stderr.split(separator: "=", maxSplits: 1).last?.split(separator: " ").first)
            keys.append("skadnetwork=" + key)
        }
        let file = setup.directory.url.appendingPathComponent("sent.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let key = Array(Set(keys)).joined(separator: ",")
        let server = try ServeCommandTests.Server([
            "--data", setup.directory.url.appendingPathComponent("store").path, "--schemas", setup.out,
            "--public-key", key, "--admin-listen", "127.0.0.1:0",
        ])
        for line in lines {
            let body = setup.directory.url.appendingPathComponent("body.json")
            try line.write(to: body, atomically: true, encoding: .utf8)
            let posted = try ServeCommandTests.curl([
                "-o", "/dev/null", "-w", "%{http_code}", "--data-binary", "@\(body.path)",
                "\(server.url)/.well-known/skadnetwork/report-attribution/",
            ])
            #expect(posted.stdout == "200", "\(posted.stderr)")
        }
        let admin = "http://127.0.0.1:\(try #require(server.adminPort))"
        let live = try ServeCommandTests.curl(["\(admin)/report?format=json"])
        let html = try ServeCommandTests.curl(["-w", "\n%{http_code}", "\(admin)/report?format=html"])
        let markdown = try ServeCommandTests.curl(["\(admin)/report"])
        #expect(server.stop() == 0)

        let command = try CLI.run([
            "report", "--schemas", setup.out, file.path, "--format", "json", "--public-key", key,
        ])
        #expect(command.status == 0, "\(command.stderr)")
        let served = try #require(try JSONSerialization.jsonObject(with: Data(live.stdout.utf8)) as? NSDictionary)
        let read = try #require(try JSONSerialization.jsonObject(with: Data(command.stdout.utf8)) as? NSDictionary)
        #expect(served == read, "\(live.stdout.prefix(800))")
        let apps = try #require(served["apps"] as? [[String: Any]])
        #expect(apps.map { $0["ok"] as? Int ?? 0 }.allSatisfy { $0 > 0 }, "both apps counted")
        #expect((served["without_app"] as? [String: Any])?["not_ok"] as? [String: Int] == ["unknown-app": unknownLines])
        #expect(html.stdout.hasSuffix("\n400") && html.stdout.contains("many apps is markdown, json, csv"))
        #expect(
            markdown.stdout.contains("# Postback report: Game") && markdown.stdout.contains("# Postback report: Shop"))
    }
}
