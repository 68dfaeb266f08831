import Foundation
import SkanTestSupport
import Testing

/// `skanc serve` end to end: real clients (curl, Python's http.client) post Apple's example postbacks and
/// signed simulated ones; the store reads back as the files they came from; crashes, failing writes and
/// hostile requests keep every promise (Tests/Scripts/receiver_check.py drives those and prints what it did).
@Suite(.serialized) struct ServeCommandTests {
    /// A `skanc serve` child on free ports, stopped with SIGTERM at the end.
    final class Server {
        let process = Process()
        let output = Pipe()
        let errors = Pipe()
        var port = 0
        var adminPort: Int?

        init(_ arguments: [String]) throws {
            process.executableURL = CLI.executable
            process.arguments = ["serve", "--listen", "127.0.0.1:0", "--instance", "test"] + arguments
            process.currentDirectoryURL = CLI.packageRoot
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let first = Self.line(output.fileHandleForReading)
            port = try #require(Int(first.split(separator: ":").last ?? ""), "no port in \(first.debugDescription)")
            if arguments.contains("--admin-listen") {
                adminPort = Int(Self.line(output.fileHandleForReading).split(separator: ":").last ?? "")
            }
        }

        static func line(_ handle: FileHandle) -> String {
            var bytes: [UInt8] = []
            while let byte = try? handle.read(upToCount: 1), let first = byte.first, first != 10 { bytes.append(first) }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// SIGTERM: it answers what is in flight and exits 0.
        func stop() -> Int32 {
            process.terminate()
            process.waitUntilExit()
            return process.terminationStatus
        }

        var url: String { "http://127.0.0.1:\(port)" }
    }

    static func curl(_ arguments: [String]) throws -> CLIResult {
        try CLI.run(["-s", "-S"] + arguments, executable: try ChildProcess.onPath("curl"))
    }

    /// Now in UTC as `received_at` is written (`2026-12-03T13:30:00Z`), to the second.
    static func utcNow() -> String { ISO8601DateFormatter().string(from: Date()) }

    static func segments(_ store: URL) throws -> [String] {
        let root = store.appendingPathComponent("postbacks")
        return try FileManager.default.contentsOfDirectory(atPath: root.path).sorted().flatMap { day in
            try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(day).path).sorted()
                .filter { $0.hasSuffix(".jsonl") }.map {
                    root.appendingPathComponent(day).appendingPathComponent($0).path
                }
        }
    }

    /// Apple's examples and signed SKAdNetwork 4.0 and AdAttributionKit postbacks, posted by curl and by
    /// Python: every one stored, and `skanc report` over the store equals `skanc report` over the file.
    @Test func realClientsPostAndTheStoreReadsBackAsTheFile() throws {
        let directory = try TemporaryDirectory()
        let started = Self.utcNow()
        var lines = try String(
            contentsOfFile: CLI.packageRoot.appendingPathComponent("Tests/Fixtures/apple-examples.jsonl").path,
            encoding: .utf8
        )
        .split(separator: "\n").map(String.init)
        var keys: [String] = []
        for framework in ["skadnetwork", "adattributionkit"] {
            let made = try CLI.run([
                "simulate", "Schemas/Game.skan", "Tests/Fixtures/journeys/game.jsonl", "--postbacks", "--users", "40",
                "--framework", framework, "--sign-with", "Tests/Fixtures/keys/rfc6979-test-key.pem", "--seed", "7",
            ])
            try #require(made.status == 0, "\(made.stderr)")
            lines += made.stdout.split(separator: "\n").map(String.init)
            let key = try #require(made.stderr.split(separator: "=", maxSplits: 1).last?.split(separator: " ").first)
            keys.append((framework == "skadnetwork" ? "skadnetwork=" : "jws:skanc-test/1=") + key)
        }
        // Apple's development-signed example (its JWS header names `apple-development-identifier/1`) is stored
        // apart: the store reads back as the file without it.
        let development = lines.filter { $0.contains("eyJraWQiOiJhcHBsZS1kZXZlbG9wbWVudC1pZGVudGlmaWVy") }
        #expect(development.count == 1)
        let source = directory.url.appendingPathComponent("sent.jsonl")
        try (lines.filter { !development.contains($0) }.joined(separator: "\n") + "\n").write(
            to: source, atomically: true, encoding: .utf8)
        let store = directory.url.appendingPathComponent("store")
        let server = try Server([
            "--data", store.path, "--schema", "Schemas/Game.skan", "--public-key", keys.joined(separator: ","),
            "--admin-listen", "127.0.0.1:0",
        ])
        // The first half by curl, one request each; the rest by Python's http.client on one kept-alive connection.
        let half = lines.count / 2
        for (index, line) in lines[..<half].enumerated() {
            let path = line.contains("\"jws-string\"") ? "appattribution" : "skadnetwork"
            let body = directory.url.appendingPathComponent("body-\(index).json")
            try line.write(to: body, atomically: true, encoding: .utf8)
            let posted = try Self.curl([
                "-o", "/dev/null", "-w", "%{http_code}", "--data-binary", "@\(body.path)",
                "\(server.url)/.well-known/\(path)/report-attribution/",
            ])
            #expect(posted.stdout == "200", "\(posted.stderr)")
        }
        let rest = directory.url.appendingPathComponent("rest.jsonl")
        try (lines[half...].joined(separator: "\n") + "\n").write(to: rest, atomically: true, encoding: .utf8)
        let script = """
            import http.client, sys
            connection = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]))
            for line in open(sys.argv[2], "rb").read().splitlines():
                connection.request("POST", "/.well-known/skadnetwork/report-attribution", body=line)
                answer = connection.getresponse()
                answer.read()
                print(answer.status)
            """
        let python = try CLI.run(
            ["-c", script, String(server.port), rest.path], executable: try ChildProcess.onPath("python3"))
        #expect(python.stdout.split(separator: "\n").allSatisfy { $0 == "200" }, "\(python.stderr)")
        #expect(python.stdout.split(separator: "\n").count == lines.count - half)
        let live = try Self.curl(["http://127.0.0.1:\(try #require(server.adminPort))/report?format=json"])
        #expect(server.stop() == 0)
        let report = ["report", "Schemas/Game.skan", "--format", "json", "--public-key", keys.joined(separator: ",")]
        let fromFile = try CLI.run(report + [source.path])
        let fromStore = try CLI.run(report + (try Self.segments(store)))
        #expect(fromFile.status == 0 && !fromFile.stdout.isEmpty)
        // The store's segments have receipt times: the same report, and the days' trend besides.
        let storeReport = try #require(
            try JSONSerialization.jsonObject(with: Data(fromStore.stdout.utf8)) as? NSDictionary)
        let fileReport = try #require(
            try JSONSerialization.jsonObject(with: Data(fromFile.stdout.utf8)) as? NSDictionary)
        let trend = try #require(storeReport["trend"] as? [[String: Any]])
        #expect(!trend.isEmpty && fileReport["trend"] == nil)
        let withoutTrend = storeReport.mutableCopy() as! NSMutableDictionary
        withoutTrend.removeObject(forKey: "trend")
        #expect(withoutTrend.isEqual(fileReport))
        #expect(live.stdout == fromFile.stdout)
        let apart = try Self.segments(store.appendingPathComponent("development"))
        #expect(try apart.map { try String(contentsOfFile: $0, encoding: .utf8) } == development.map { $0 + "\n" })
        // Each stored line has its receipt time on the same line of the .times file.
        for segment in try Self.segments(store) {
            let stored = try String(contentsOfFile: segment, encoding: .utf8).split(separator: "\n")
            let times = try String(contentsOfFile: String(segment.dropLast(6)) + ".times", encoding: .utf8)
                .split(separator: "\n")
            #expect(stored.count == times.count)
            #expect(times.allSatisfy { Int($0).map { $0 > 1_700_000_000 } ?? false })
        }
        // `skanc postbacks` reads them back as `received_at`: every row has one, between start and end.
        let finished = Self.utcNow()
        let rows = try CLI.run(["postbacks", "Schemas/Game.skan", "--no-verify"] + (try Self.segments(store)))
        let table = rows.stdout.split(separator: "\r\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        let column = try #require(table.first?.firstIndex(of: "received_at"), "\(rows.stdout.prefix(200))")
        #expect(table.first?[column - 1] == "line")
        #expect(table.count == lines.count - development.count + 1)
        for row in table.dropFirst() {
            #expect(row[column].count == 20 && row[column] >= started && row[column] <= finished, "\(row[column])")
        }
    }

    @Test func adminRoutesAndAnswersThatRevealNothing() throws {
        let directory = try TemporaryDirectory()
        let server = try Server(["--data", directory.url.path, "--admin-listen", "127.0.0.1:0"])
        let admin = "http://127.0.0.1:\(try #require(server.adminPort))"
        #expect(try Self.curl(["\(admin)/healthz"]).stdout == "ok\n")
        // The public port serves postbacks only.
        #expect(try Self.curl(["-o", "/dev/null", "-w", "%{http_code}", "\(server.url)/metrics"]).stdout == "404")
        let examples = CLI.packageRoot.appendingPathComponent("Tests/Fixtures/apple-examples.jsonl").path
        let first = try #require(try String(contentsOfFile: examples, encoding: .utf8).split(separator: "\n").first)
        var answers: Set<String> = []
        // A forgery shaped like a postback: Apple's signature no longer matches another transaction-id.
        let forged = first.replacingOccurrences(of: "6aafb7a5-0170", with: "00000000-0170")
        for body in [String(first), String(first), forged] {
            answers.insert(
                try Self.curl([
                    "-i", "--data-binary", body, "\(server.url)/.well-known/skadnetwork/report-attribution/",
                ])
                .stdout.replacingOccurrences(of: "\r", with: ""))
        }
        // A verified postback, its duplicate and a forgery get one identical answer.
        #expect(answers.count == 1)
        // Counting runs behind the answers: /metrics waits for it (a few seconds at most,
        // then answers with what is left in skanc_postbacks_uncounted), so ask until nothing is left.
        var metrics = try Self.curl(["\(admin)/metrics"]).stdout
        while !metrics.contains("skanc_postbacks_uncounted 0\n") {
            metrics = try Self.curl(["\(admin)/metrics"]).stdout
        }
        for sample in [
            #"skanc_postbacks_stored_total{framework="skadnetwork"} 3"#,
            #"skanc_postbacks_by_status_total{status="ok"} 1"#,
            #"skanc_postbacks_by_status_total{status="duplicate"} 1"#, "skanc_fsync_seconds_count ",
            #"skanc_requests_total{route="skadnetwork",status="200"} 3"#,
        ] {
            #expect(metrics.contains(sample), "\(sample)\n\(metrics)")
        }
        #expect(try Self.curl(["-o", "/dev/null", "-w", "%{http_code}", "\(admin)/report"]).stdout == "404")
        #expect(server.stop() == 0)
    }

    /// With `--admin-token`, the admin routes answer only the bearer of the token; a short token is refused.
    @Test func adminRoutesCanRequireABearerToken() throws {
        let directory = try TemporaryDirectory()
        let token = "3f6c1a9e8d7b2c4f5a6e7d8c9b0a1f2e"
        let file = directory.url.appendingPathComponent("token")
        try (token + "\n").write(to: file, atomically: true, encoding: .utf8)
        let server = try Server([
            "--data", directory.url.appendingPathComponent("store").path, "--admin-listen", "127.0.0.1:0",
            "--admin-token", file.path,
        ])
        let healthz = "http://127.0.0.1:\(try #require(server.adminPort))/healthz"
        let status = ["-o", "/dev/null", "-w", "%{http_code}", healthz]
        #expect(try Self.curl(status).stdout == "401")
        #expect(try Self.curl(["-H", "Authorization: Bearer \(token.dropLast())0"] + status).stdout == "401")
        #expect(try Self.curl(["-H", "Authorization: Bearer \(token)"] + status).stdout == "200")
        #expect(server.stop() == 0)
        try "short\n".write(to: file, atomically: true, encoding: .utf8)
        let refused = try CLI.run(["serve", "--data", directory.url.path, "--admin-token", file.path])
        #expect(refused.status == 64 && refused.stderr.contains("at least 16"), "\(refused.stderr)")
    }

    /// A store that cannot be used is refused before the receiver says it listens: an empty name is bad usage
    /// (64), a folder that cannot be made (under a file) a store error (1), a busy port an address error (1).
    @Test func storesAndPortsThatCannotBeUsedAreRefusedBeforeListening() throws {
        let directory = try TemporaryDirectory()
        let empty = try CLI.run(["serve", "--data", ""])
        #expect(empty.status == 64 && empty.stdout.isEmpty, "\(empty.stderr)")
        let file = directory.url.appendingPathComponent("file")
        try "x".write(to: file, atomically: true, encoding: .utf8)
        let underFile = try CLI.run(["serve", "--data", file.path + "/store", "--listen", "127.0.0.1:0"])
        #expect(underFile.status == 1 && underFile.stdout.isEmpty, "\(underFile.stderr)")
        #expect(underFile.stderr.contains("[file-unwritable]"), "\(underFile.stderr)")
        let server = try Server(["--data", directory.url.appendingPathComponent("a").path])
        let busy = try CLI.run([
            "serve", "--data", directory.url.appendingPathComponent("b").path, "--listen", "127.0.0.1:\(server.port)",
        ])
        #expect(busy.status == 1 && busy.stdout.isEmpty, "\(busy.stderr)")
        #expect(busy.stderr.contains("cannot listen on") && !busy.stderr.contains("file-unwritable"), "\(busy.stderr)")
        #expect(server.stop() == 0)
    }

    /// HTTP/1.0 without keep-alive and `Connection: close` get an answer that says the connection closes;
    /// HTTP/1.1 keeps the connection for the next request.
    @Test func connectionCloseIsHonoured() throws {
        let directory = try TemporaryDirectory()
        let server = try Server(["--data", directory.url.path])
        let url = "\(server.url)/.well-known/skadnetwork/report-attribution/"
        // Two requests on one keep-alive connection.
        let connects = ["-w", "%{num_connects} ", "-o", "/dev/null", url, "-o", "/dev/null", url]
        #expect(try Self.curl(connects).stdout == "1 0 ")
        let examples = CLI.packageRoot.appendingPathComponent("Tests/Fixtures/apple-examples.jsonl").path
        let first = try #require(try String(contentsOfFile: examples, encoding: .utf8).split(separator: "\n").first)
        let file = directory.url.appendingPathComponent("postback.json")
        try String(first).write(to: file, atomically: true, encoding: .utf8)
        let body = "@" + file.path
        let old = try Self.curl(["-i", "--http1.0", "--data-binary", body, url]).stdout
        #expect(old.contains("Connection: close\r\n") && old.hasSuffix("stored\n"), "\(old)")
        let closing = try Self.curl(["-i", "-H", "Connection: close", "--data-binary", body, url]).stdout
        #expect(closing.contains("Connection: close\r\n") && closing.hasSuffix("stored\n"), "\(closing)")
        let kept = try Self.curl(["-i", "--data-binary", body, url]).stdout
        #expect(!kept.contains("Connection: close") && kept.hasPrefix("HTTP/1.1 200"), "\(kept)")
        #expect(server.stop() == 0)
    }

    static func check(_ scenario: String, _ extra: [String] = [], users: Int) throws -> String {
        let directory = try TemporaryDirectory()
        let postbacks = directory.url.appendingPathComponent("postbacks.jsonl")
        let made = try CLI.run([
            "simulate", "Schemas/Game.skan", "Tests/Fixtures/journeys/game.jsonl", "--postbacks", "--users",
            String(users), "--tiers", "3:1",
        ])
        try made.stdout.write(to: postbacks, atomically: true, encoding: .utf8)
        let run = try CLI.run(
            [
                CLI.packageRoot.appendingPathComponent("Tests/Scripts/receiver_check.py").path, CLI.executable.path,
                scenario, directory.url.path, "--postbacks", postbacks.path,
            ] + extra, executable: try ChildProcess.onPath("python3"))
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        print(run.stdout, terminator: "")
        if scenario == "crash" {
            // Each distinct postback is counted once: the re-sent ones are duplicates of what was stored.
            let segments = try Self.segments(directory.url.appendingPathComponent("store"))
            let summary = try CLI.run(["postbacks", "Schemas/Game.skan", "--no-verify", "--summary-only"] + segments)
            let sent = made.stdout.split(separator: "\n").count
            #expect(sent >= 20_000)
            #expect(summary.stdout.contains("\nok: \(sent)\n"), "\(summary.stdout)")
        }
        return run.stdout
    }

    /// SIGKILL at random moments under 16 concurrent clients, two seeds: nothing acknowledged is lost.
    @Test(arguments: [1, 2])
    func killedAtRandomItLosesNothingAcknowledged(_ seed: Int) throws {
        let said = try Self.check("crash", ["--seed", String(seed), "--kills", "5"], users: 8_000)
        #expect(said.hasPrefix("crash: seed \(seed), "))
    }

    @Test func writesThatFailAreAnswered503AndStoredOnceLater() throws {
        #expect(try Self.check("fault", users: 300).hasPrefix("fault: "))
    }

    /// Four clients flood junk (no postback's shape, then past their rate) while a device posts: every genuine
    /// postback is stored, nothing of the junk is written, the flood is answered 400 and 429.
    @Test func aFloodOfJunkFillsNothingAndGenuinePostbacksAreStored() throws {
        #expect(try Self.check("flood", users: 100).hasPrefix("flood: "))
    }

    /// A client that pipelines and never reads stops being read; the process does not grow.
    @Test func aClientThatNeverReadsIsNotReadFurther() throws {
        #expect(try Self.check("pipeline", users: 20).hasPrefix("pipeline: "))
    }

    /// Idle connections past a client's share are closed at once, the rest at the request timeout; the admin
    /// port keeps slots of its own.
    @Test func idleConnectionsHoldNoSlotForLong() throws {
        #expect(try Self.check("slots", users: 20).hasPrefix("slots: "))
    }

    /// Postbacks sent again after a restart are duplicates of the store's; `/report` is made from the counts.
    @Test func aRestartKeepsDuplicatesAndTheReportWhole() throws {
        #expect(try Self.check("restart", users: 20).hasPrefix("restart: "))
    }

    /// Two receivers on one store, one killed and restarted under load: the other's segments stay whole.
    @Test func receiversSharingAStoreNeverCutEachOther() throws {
        #expect(try Self.check("shared", users: 200).hasPrefix("shared: "))
    }

    /// Every stored postback reaches every destination (good, slow, flaky, down for a while, filtered) byte for
    /// byte, through two SIGKILLs while forwarding.
    @Test func everyStoredPostbackIsForwardedToEveryDestination() throws {
        #expect(try Self.check("relay", users: 40).hasPrefix("relay: "))
    }

    @Test func hostileRequestsAreRefusedAndServingGoesOn() throws {
        #expect(try Self.check("hostile", users: 50).hasPrefix("hostile: 19 hostile requests"))
    }
}
