import Foundation
import SkanCore
import SkanLanguageServer
import SkanTestSupport
import Testing

/// Code lenses: above each coarse block, how the fine values divide among its coarse values, counted by hand here;
/// values whose rule turns on events or time counted apart; none while the document has errors.
@Suite struct CodeLensTests {
    static func lenses(_ session: inout ServerSession, uri: String = "file:///schema.skan") -> [String] {
        let params = #"{"textDocument": {"uri": "\#(uri)"}}"#
        guard case .array(let lenses)? = session.request("textDocument/codeLens", params)?["result"] else { return [] }
        return lenses.map {
            "\($0["range"]?["start"]?["line"]?.integer ?? -1): \($0["command"]?["title"]?.string ?? "")"
                + ($0["command"]?["command"]?.string == "" ? "" : " (not a label)")
        }
    }

    @Test func eachCoarseBlockSaysHowTheFineValuesDivide() {
        var session = ServerSession.initialized()
        // paid x level: six fine values. Window 1: high for level high (2), medium for paid (2 more), low (2).
        // Windows 2-3: nothing unless paid (3 of 6), high when paid and level high (1), low for the rest (2).
        _ = session.open(
            """
            schema T
            version 1
            flag paid at bit 0
            field level at bits 1...2 { none = 0 low = 1 high = 2 }
            reserved bits 3...5
            coarse window 1 { high when level == high  medium when paid  low otherwise }
            coarse windows 2...3 {
              nothing when not paid
              high when level == high
              low otherwise
            }

            """)
        #expect(
            Self.lenses(&session) == [
                "5: 6 fine values: high 2 (33%), medium 2 (33%), low 2 (33%)",
                "6: 6 fine values: high 1 (17%), low 2 (33%), nothing 3 (50%)",
            ])
    }

    @Test func rulesOnEventsAreCountedApart() throws {
        var session = ServerSession.initialized()
        let game = try String(
            contentsOf: Paths.packageRoot.appendingPathComponent("Schemas/Game.skan"), encoding: .utf8)
        _ = session.open(game)
        // Window 1 reads revenue and registered, both in the fine value: revenue mid or high is half of the 64,
        // registered a half of the rest. Windows 2-3 read purchase and level counts, which no fine value holds.
        let lenses = Self.lenses(&session)
        #expect(
            lenses.map { String($0.drop { $0 != " " }.dropFirst()) } == [
                "64 fine values: high 32 (50%), medium 16 (25%), low 16 (25%)",
                "64 fine values: by events or time 64 (100%)",
            ])
        _ = session.open(game.replacingOccurrences(of: "bits 1...2", with: "bits 1...9"))
        #expect(Self.lenses(&session).isEmpty, "no lens while the schema has errors")
    }
}
