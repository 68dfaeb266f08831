import Foundation
import SkanTestSupport
import Testing

@Suite struct PostbacksCommandTests {
    static let examples = "Tests/Fixtures/apple-examples.jsonl"

    @Test func decodesAFileToCSVAndExits1WhenALineHasAProblem() throws {
        let result = try CLI.run(["postbacks", "Schemas/Shop.skan", Self.examples, "--allow-development"])
        #expect(result.status == 1)  // Apple's examples hold a duplicate and a value with bit 5 set
        // RFC 4180: CRLF after every row.
        let lines = result.stdout.components(separatedBy: "\r\n").dropLast()
        #expect(lines.count == 7)
        #expect(!lines.contains { $0.contains("\n") })
        #expect(
            lines[0]
                == "line,status,signature,framework,version,transaction_id,ad_network_id,source_identifier,source_digits,campaign_id,app_id,publisher,publisher_kind,marketplace,postback_sequence_index,did_win,interaction,conversion_type,tier,country_code,fine_value,coarse_value,registered,payment_tier,day_one_action,coarse_meaning"
        )
        #expect(
            lines[6]
                == "6,ok,development,adattributionkit,,85546EB7-FD39-44BC-8990-C98A4AC36A49,development.adattributionkit,1234,4,,10738027756,0,app,com.apple.AppStore,0,true,click,re-engagement,3,US,24,,false,none,ordered,"
        )
        #expect(result.stderr.isEmpty)
    }

    @Test func cleanInputExits0AndStandardInputWorks() throws {
        let base =
            #""version":"4.0","ad-network-id":"n","source-identifier":"12","app-id":1,"redownload":false,"fidelity-type":0,"did-win":true"#
        let input =
            "{\(base),\"transaction-id\":\"1\",\"postback-sequence-index\":0,\"conversion-value\":11}\n\n"
            + "{\(base),\"transaction-id\":\"2\",\"coarse-conversion-value\":\"low\",\"postback-sequence-index\":1}\n"
        // Made-up postbacks carry no signature: --no-verify.
        let result = try CLI.run(["postbacks", "Schemas/Shop.skan", "--format", "jsonl", "--no-verify"], stdin: input)
        #expect(result.status == 0)
        let rows = result.stdout.split(separator: "\n")
        #expect(rows.count == 2)
        #expect(rows[0].contains("\"line\":1,\"status\":\"ok\""))
        #expect(rows[0].contains("\"registered\":true,\"payment_tier\":\"low\",\"day_one_action\":\"browsed\""))
        #expect(rows[1].contains("\"line\":3,") && rows[1].contains("\"coarse_meaning\":\"otherwise\""))
    }

    @Test func oneThreadGivesTheSameRows() throws {
        let many = try CLI.run(["postbacks", "Schemas/Shop.skan", Self.examples])
        let one = try CLI.run(["postbacks", "Schemas/Shop.skan", Self.examples, "--threads", "1"])
        #expect(one.stdout == many.stdout && one.status == many.status)
    }

    @Test func summaryAddsUp() throws {
        let result = try CLI.run(["postbacks", "Schemas/Shop.skan", Self.examples, "--summary-only"])
        #expect(result.status == 1)
        #expect(
            result.stdout.hasPrefix(
                "lines read: 6 (blank lines skipped: 0)\nok: 3\nproblems: 3\n  invalid-fine: 1\n  bad-signature: 1\n  duplicate: 1\n"
            ))
        #expect(
            result.stdout.contains(
                "signatures: verified 5, development 1, invalid 0, missing 0, unknown-key 0, unsupported 0\n"))
        let withRows = try CLI.run(["postbacks", "Schemas/Shop.skan", Self.examples, "--summary"])
        #expect(withRows.stdout.components(separatedBy: "\r\n").count == 8)
        #expect(withRows.stderr == result.stdout)
    }

    @Test func severalFilesGetAFileColumnAndMissingFilesAreReported() throws {
        let result = try CLI.run(["postbacks", "Schemas/Shop.skan", Self.examples, "Missing.jsonl", Self.examples])
        #expect(result.status == 1)
        #expect(result.stderr.contains("Missing.jsonl: error: no such file; check the path [file-unreadable]"))
        let lines = result.stdout.components(separatedBy: "\r\n").dropLast()
        #expect(lines[0].hasPrefix("file,line,status,"))
        #expect(lines.count == 13)
        // The second copy's lines are all duplicates of the first's.
        #expect(lines[7].hasPrefix("\(Self.examples),1,duplicate,"))
    }

    @Test func badUsage() throws {
        #expect(try CLI.run(["postbacks"]).status == 64)
        #expect(try CLI.run(["postbacks", "Schemas/Shop.skan", "--format", "xml"]).status == 64)
        #expect(try CLI.run(["postbacks", "Schemas/Shop.skan", "--summary", "--summary-only"]).status == 64)
        #expect(try CLI.run(["postbacks", "Schemas/Shop.skan", "--threads", "0"]).status == 64)
    }

    @Test func signatureOptions() throws {
        let development = try CLI.run(["postbacks", "Schemas/Shop.skan", Self.examples])
        #expect(development.stdout.contains("\r\n6,bad-signature,development,adattributionkit,"))
        let unchecked = try CLI.run(["postbacks", "Schemas/Shop.skan", Self.examples, "--no-verify"])
        #expect(unchecked.stdout.contains("\r\n1,ok,,skadnetwork,"))
        for wrong in [
            ["--no-verify", "--allow-development"], ["--public-key", "skadnetwork"], ["--public-key", "rsa=AAAA"],
            ["--public-key", "skadnetwork=bm90IGEga2V5"], ["--no-verify", "--public-key", "skadnetwork=AAAA"],
        ] {
            let result = try CLI.run(["postbacks", "Schemas/Shop.skan", Self.examples] + wrong)
            #expect(result.status == 64, "\(wrong)")
            #expect(result.stderr.contains("--"), "\(wrong): \(result.stderr)")
        }
        // A key of one's own: the Apple development key given as a production one makes the AdAttributionKit
        // line verified.
        let key =
            "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE8YzdO7eM97s/IJ25kdW5CZ3A14USE5IJ5Ha/vhWaxI6UBI1ZxCEvjrKxVluVGe6qWwF1BDFq+QHqKfH5u+wxHQ=="
        let added = try CLI.run([
            "postbacks", "Schemas/Shop.skan", Self.examples, "--public-key",
            "jws:apple-development-identifier/1=\(key)",
        ])
        #expect(added.stdout.contains("\r\n6,ok,verified,adattributionkit,"), "\(added.stdout)")
    }
}

/// Receipt times beside a segment are read from a regular file, whole: a FIFO there is refused at once (it
/// would block for ever), and a segment read from a FIFO gets its right times, never cut ones.
@Suite struct ReceiptTimesSidecarTests {
    @Test func aFIFOAsReceiptTimesIsRefusedWithoutBlocking() throws {
        let directory = try TemporaryDirectory()
        let segment = directory.url.appendingPathComponent("s.jsonl").path
        try FileManager.default.copyItem(
            atPath: CLI.packageRoot.appendingPathComponent("Tests/Fixtures/apple-examples.jsonl").path, toPath: segment)
        #expect(mkfifo(directory.url.appendingPathComponent("s.times").path, 0o600) == 0)
        let result = try CLI.run(["postbacks", "Schemas/Shop.skan", segment, "--no-verify"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("s.times: error: is not a regular file"), "\(result.stderr)")
    }

    /// A `.times` that is a symbolic link looping (or dangling) is an error at it, not times left out in silence.
    @Test func aLoopingLinkAsReceiptTimesIsAnError() throws {
        let directory = try TemporaryDirectory()
        let segment = directory.url.appendingPathComponent("s.jsonl").path
        try FileManager.default.copyItem(
            atPath: CLI.packageRoot.appendingPathComponent("Tests/Fixtures/apple-examples.jsonl").path, toPath: segment)
        let times = directory.url.appendingPathComponent("s.times").path
        let other = directory.url.appendingPathComponent("t.times").path
        try FileManager.default.createSymbolicLink(atPath: times, withDestinationPath: other)
        try FileManager.default.createSymbolicLink(atPath: other, withDestinationPath: times)
        let result = try CLI.run(["postbacks", "Schemas/Shop.skan", segment, "--no-verify"])
        #expect(result.status == 1 && result.stderr.contains("s.times: error: cannot open"), "\(result.stderr)")
        try FileManager.default.removeItem(atPath: other)
        let dangling = try CLI.run(["postbacks", "Schemas/Shop.skan", segment, "--no-verify"])
        #expect(dangling.status == 1 && dangling.stderr.contains("s.times: error"), "\(dangling.stderr)")
    }

    @Test func aSegmentReadFromAFIFOGetsItsRightTimes() throws {
        let directory = try TemporaryDirectory()
        let segment = directory.url.appendingPathComponent("s.jsonl").path
        #expect(mkfifo(segment, 0o600) == 0)
        let lines = try String(
            contentsOfFile: CLI.packageRoot.appendingPathComponent("Tests/Fixtures/apple-examples.jsonl").path,
            encoding: .utf8)
        let times = (0..<6).map { String(1_764_720_000 + $0 * 86_400) + "\n" }.joined()
        try times.write(toFile: directory.url.appendingPathComponent("s.times").path, atomically: true, encoding: .utf8)
        let writer = Thread {
            if let handle = FileHandle(forWritingAtPath: segment) {
                handle.write(Data(lines.utf8))
                try? handle.close()
            }
        }
        writer.start()
        let result = try CLI.run(["postbacks", "Schemas/Shop.skan", segment, "--no-verify"])
        let received = result.stdout.split(separator: "\r\n").dropFirst().map {
            String($0.split(separator: ",", omittingEmptySubsequences: false)[1])
        }
        #expect(
            received == [
                "2025-12-03T00:00:00Z", "2025-12-04T00:00:00Z", "2025-12-05T00:00:00Z", "2025-12-06T00:00:00Z",
                "2025-12-07T00:00:00Z", "2025-12-08T00:00:00Z",
            ], "\(result.stdout)\(result.stderr)")
    }
}

/// A `.times` line that is no receipt time gives an empty `received_at`, and a located warning, never a wrong time.
@Suite struct UnreadableReceiptTimesTests {
    @Test func eachUnreadableTimeIsAWarningAtItsLine() throws {
        let directory = try TemporaryDirectory()
        let segment = directory.url.appendingPathComponent("s.jsonl").path
        let lines = try String(
            contentsOfFile: CLI.packageRoot.appendingPathComponent("Tests/Fixtures/apple-examples.jsonl").path,
            encoding: .utf8
        ).split(separator: "\n").prefix(3)
        try (lines.joined(separator: "\n") + "\n").write(toFile: segment, atomically: true, encoding: .utf8)
        try "1700000000\nNaN\n0x10\n1e9\n".write(
            toFile: directory.url.appendingPathComponent("s.times").path, atomically: true, encoding: .utf8)
        let result = try CLI.run(["postbacks", "Schemas/Shop.skan", segment, "--no-verify"])
        for line in [2, 3] {
            #expect(
                result.stderr.contains("s.times:\(line):1: warning: not Unix seconds"), "\(line): \(result.stderr)")
        }
        #expect(result.stderr.contains("4 receipt times for 3 postback lines"), "\(result.stderr)")
        let received = result.stdout.split(separator: "\r\n").dropFirst().map {
            String($0.split(separator: ",", omittingEmptySubsequences: false)[1])
        }
        #expect(received == ["2023-11-14T22:13:20Z", "", ""], "\(result.stdout)")
    }
}
