import Foundation
import SkanTestSupport
import Testing

/// A rule reads everywhere as its author wrote it, parentheses included: tables, `decode` and postback rows.
@Suite struct RuleTextTests {
    static let schema = """
        schema Game
        version 1
        flag tutorialDone at bit 0
        flag paid at bit 1
        field adViews at bits 2...3 { none = 0 some = 1 many = 2 }
        reserved bits 4...5
        coarse {
          high   when paid or (tutorialDone and adViews == many)
          medium when not (paid or tutorialDone)
          low    otherwise
        }

        """
    static let high = "paid or (tutorialDone and adViews == many)"

    @Test func tablesDecodeAndPostbacksAgree() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "skanc-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("Game.skan").path
        try Self.schema.write(toFile: path, atomically: true, encoding: .utf8)

        for format in ["text", "json", "markdown", "html", "sql"] {
            let table = try CLI.run(["table", path, "--format", format])
            #expect(table.status == 0)
            #expect(table.stdout.contains(Self.high), "\(format)")
        }
        let coarse = try CLI.run(["table", path, "--format", "csv", "--table", "coarse"])
        #expect(coarse.stdout.contains("1,high,paid or (tutorialDone and adViews == many),"))
        #expect(coarse.stdout.contains("1,medium,not (paid or tutorialDone),"))
        let decode = try CLI.run(["decode", path, "high", "--window", "1"])
        #expect(decode.stdout.contains(Self.high), "\(decode.stdout)")
        let postback =
            #"{"version":"4.0","ad-network-id":"n","source-identifier":"12","app-id":1,"transaction-id":"t","redownload":false,"fidelity-type":0,"did-win":true,"postback-sequence-index":0,"coarse-conversion-value":"high"}"#
        let rows = try CLI.run(["postbacks", path, "--format", "jsonl"], stdin: postback + "\n")
        #expect(rows.stdout.contains(#""coarse_meaning":"\#(Self.high)""#), "\(rows.stdout)")
    }
}
