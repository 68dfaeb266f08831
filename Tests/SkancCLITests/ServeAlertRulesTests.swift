import Foundation
import SkanTestSupport
import Testing

/// The Prometheus alert rules shipped for `skanc serve` (Deploy/prometheus/skanc-alerts.yml): promtool's unit tests
/// (each rule fires on series made to trip it and stays quiet on a healthy receiver's), and a real Prometheus
/// scraping a test receiver: it reads the exposition, loads every rule, evaluates them without error, and none
/// fires.
@Suite struct ServeAlertRulesTests {
    static let rules = "Deploy/prometheus/skanc-alerts.yml"

    @Test func promtoolChecksAndUnitTestsTheRules() throws {
        let promtool = try ChildProcess.onPath("promtool")
        let check = try CLI.run(["check", "rules", Self.rules], executable: promtool)
        #expect(check.status == 0 && check.stdout.contains("SUCCESS: 7 rules found"), "\(check.stdout)\(check.stderr)")
        let unit = try CLI.run(["test", "rules", "Tests/Prometheus/skanc-alerts.test.yml"], executable: promtool)
        #expect(unit.status == 0 && unit.stdout.contains("SUCCESS"), "\(unit.stdout)\(unit.stderr)")
    }

    @Test func aRealPrometheusScrapesTheReceiverAndEvaluatesEveryRuleQuietly() throws {
        let prometheus = try ChildProcess.onPath("prometheus")
        let directory = try TemporaryDirectory()
        let server = try ServeCommandTests.Server([
            "--data", directory.url.appendingPathComponent("store").path, "--admin-listen", "127.0.0.1:0",
        ])
        defer { _ = server.stop() }
        let admin = try #require(server.adminPort)
        let posted = try ServeCommandTests.curl([
            "-o", "/dev/null", "-w", "%{http_code}", "--data-binary",
            "@" + CLI.packageRoot.appendingPathComponent("Tests/Fixtures/apple-examples.jsonl").path,
            "\(server.url)/.well-known/skadnetwork/report-attribution/",
        ])
        // The whole file is no one postback: refused, and counted as such.
        #expect(posted.stdout == "400")
        let configuration = directory.url.appendingPathComponent("prometheus.yml")
        try """
        global:
          scrape_interval: 1s
          evaluation_interval: 1s
        rule_files:
          - \(CLI.packageRoot.appendingPathComponent(Self.rules).path)
        scrape_configs:
          - job_name: skanc
            static_configs:
              - targets: ["127.0.0.1:\(admin)"]
        """.write(to: configuration, atomically: true, encoding: .utf8)
        // Prometheus takes a port found free a moment ago (it cannot say which port 0 gave it); tried again if taken.
        var process: Process?
        var port = 0
        for _ in 0..<5 {
            port = try ServeBehindNginxTests.freePort()
            let started = Process()
            started.executableURL = prometheus
            started.arguments = [
                "--config.file=\(configuration.path)", "--storage.tsdb.path=\(directory.url.path)/tsdb",
                "--web.listen-address=127.0.0.1:\(port)",
            ]
            started.standardOutput = FileHandle.nullDevice
            started.standardError = FileHandle.nullDevice
            try started.run()
            if try Self.waitForAnswer(port: port, from: started) {
                process = started
                break
            }
        }
        let running = try #require(process, "prometheus did not start")
        defer {
            running.terminate()
            running.waitUntilExit()
        }
        // Until the receiver is scraped and every rule evaluated (each a second): at most two minutes.
        var rules: [[String: Any]] = []
        for _ in 0..<240 {
            let up = try Self.query(port: port, "up{job=\"skanc\"}")
            rules = try Self.rules(port: port)
            if up == ["1"], rules.count == 7, rules.allSatisfy({ $0["health"] as? String == "ok" }) { break }
            Thread.sleep(forTimeInterval: 0.5)
        }
        #expect(try Self.query(port: port, "up{job=\"skanc\"}") == ["1"])
        #expect(try Self.query(port: port, "skanc_store_writable") == ["1"])
        #expect(try Self.query(port: port, "skanc_bodies_refused_total") != [])
        #expect(rules.count == 7 && rules.allSatisfy { $0["health"] as? String == "ok" }, "\(rules)")
        #expect(rules.allSatisfy { $0["state"] as? String == "inactive" }, "\(rules)")
    }

    /// Whether Prometheus answers on `port`; false when the process ended (the port was taken).
    static func waitForAnswer(port: Int, from process: Process) throws -> Bool {
        while process.isRunning {
            let ready = try ServeCommandTests.curl([
                "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/-/ready",
            ])
            if ready.stdout == "200" { return true }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return false
    }

    /// The values of an instant query's samples.
    static func query(port: Int, _ expression: String) throws -> [String] {
        let answer = try ServeCommandTests.curl([
            "-G", "http://127.0.0.1:\(port)/api/v1/query", "--data-urlencode", "query=\(expression)",
        ])
        let root = try JSONSerialization.jsonObject(with: Data(answer.stdout.utf8)) as? [String: Any]
        let result = (root?["data"] as? [String: Any])?["result"] as? [[String: Any]] ?? []
        return result.compactMap { ($0["value"] as? [Any])?.last as? String }
    }

    /// The alerting rules Prometheus loaded, with their health and state.
    static func rules(port: Int) throws -> [[String: Any]] {
        let answer = try ServeCommandTests.curl(["http://127.0.0.1:\(port)/api/v1/rules"])
        let root = try JSONSerialization.jsonObject(with: Data(answer.stdout.utf8)) as? [String: Any]
        let groups = (root?["data"] as? [String: Any])?["groups"] as? [[String: Any]] ?? []
        return groups.flatMap { $0["rules"] as? [[String: Any]] ?? [] }
    }
}
