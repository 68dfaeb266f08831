import Foundation
import SkanCore
import SkanLanguageServer
import Testing

/// Inlay hints: what each case adds to the fine value after its code, and the bits no declaration holds after
/// the version, on the lines asked for.
@Suite struct InlayHintsTests {
    static let schema = """
        schema H
        version 1
        flag paid at bit 0
        field tier at bits 1...2 {
          none = 0
          gold = 3
        }
        coarse { low otherwise }

        """

    static func hints(_ session: inout ServerSession, lines: ClosedRange<Int>) -> [String] {
        let params =
            #"{"textDocument": {"uri": "file:///schema.skan"}, "range": {"start": {"line": \#(lines.lowerBound), "character": 0}, "end": {"line": \#(lines.upperBound), "character": 0}}}"#
        guard case .array(let hints)? = session.request("textDocument/inlayHint", params)?["result"] else { return [] }
        return hints.map {
            "\($0["position"]?["line"]?.integer ?? -1):\($0["position"]?["character"]?.integer ?? -1) "
                + ($0["label"]?.string ?? "")
        }
    }

    @Test func casesSayWhatTheyAddAndTheVersionWhichBitsAreFree() {
        var session = ServerSession.initialized()
        _ = session.open(Self.schema)
        #expect(Self.hints(&session, lines: 0...8) == ["4:10 +0", "5:10 +6", "1:9 free: bits 3...5"])
        #expect(Self.hints(&session, lines: 5...5) == ["5:10 +6"])
        _ = session.open(
            Self.schema.replacingOccurrences(of: "coarse", with: "reserved bits 3...4\ncoarse"),
            uri: "file:///schema.skan")
        #expect(Self.hints(&session, lines: 1...1) == ["1:9 free: bit 5"])
    }
}
