import Foundation
import SkanCore
import SkanLanguageServer
import Testing

/// Semantic tokens through the protocol: each token classified by what it is (a field named `in`, a flag named
/// `hours` and an event named `count` as the names they are, not as the keywords they look like), and a delta
/// that turns the last tokens into the new ones.
@Suite struct SemanticTokensTests {
    static let schema = """
        schema T # note
        version 1
        event count value USD
        flag hours at bit 0 when count
        field in at bits 1...2 { none = 0  low = 1 }
        reserved bits 3...5
        coarse { low when in == low  medium otherwise }

        """

    /// The legend's type names, by index, as the server declares them.
    static func legend() -> [String] {
        var session = ServerSession()
        let answer = session.request("initialize", #"{"capabilities": {}}"#)
        let capabilities = answer?["result"]?["capabilities"]?["semanticTokensProvider"]
        guard case .array(let types)? = capabilities?["legend"]?["tokenTypes"] else { return [] }
        return types.compactMap(\.string)
    }

    /// The tokens decoded: `line:character text type[*]` (`*`: declared there).
    static func decode(_ data: [Int], legend: [String], text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf16) }
        var (line, character) = (0, 0)
        return stride(from: 0, to: data.count, by: 5).map { index in
            line += data[index]
            character = data[index] == 0 ? character + data[index + 1] : data[index + 1]
            let word = String(decoding: lines[line][character..<character + data[index + 2]], as: UTF16.self)
            return "\(line):\(character) \(word) \(legend[data[index + 3]])" + (data[index + 4] == 1 ? "*" : "")
        }
    }

    static func integers(_ value: JSONDocument?) -> [Int] {
        guard case .array(let items)? = value else { return [] }
        return items.compactMap(\.integer)
    }

    @Test func namesAreClassifiedByWhatTheyAreNotHowTheyLook() throws {
        var session = ServerSession.initialized()
        _ = session.open(Self.schema)
        let legend = Self.legend()
        let answer = session.request(
            "textDocument/semanticTokens/full", #"{"textDocument": {"uri": "file:///schema.skan"}}"#)?["result"]
        let tokens = Self.decode(Self.integers(answer?["data"]), legend: legend, text: Self.schema)
        #expect(Array(tokens.prefix(3)) == ["0:0 schema keyword", "0:7 T namespace", "0:9 # note comment"])
        #expect(
            tokens.filter { $0.hasPrefix("2:") } == [
                "2:0 event keyword", "2:6 count event*", "2:12 value keyword", "2:18 USD type",
            ])
        #expect(
            tokens.filter { $0.hasPrefix("3:") } == [
                "3:0 flag keyword", "3:5 hours variable*", "3:11 at keyword", "3:14 bit keyword", "3:18 0 number",
                "3:20 when keyword", "3:25 count event",
            ])
        #expect(tokens.contains("4:6 in property*") && tokens.contains("4:35 low enumMember*"))
        // The coarse head `low` is a coarse value; after `in ==`, `low` is the field's case.
        #expect(
            tokens.filter { $0.hasPrefix("6:") } == [
                "6:0 coarse keyword", "6:9 low enumMember", "6:13 when keyword", "6:18 in property",
                "6:21 == operator", "6:24 low enumMember", "6:29 medium enumMember", "6:36 otherwise keyword",
            ])
    }

    @Test func aDeltaTurnsTheLastTokensIntoTheNewOnes() throws {
        var session = ServerSession.initialized()
        _ = session.open(Self.schema)
        let first = session.request(
            "textDocument/semanticTokens/full", #"{"textDocument": {"uri": "file:///schema.skan"}}"#)?["result"]
        let old = Self.integers(first?["data"])
        let resultId = try #require(first?["resultId"]?.string)
        let changed = Self.schema.replacingOccurrences(of: "flag hours", with: "# hours\nflag hours")
        _ = session.notify(
            "textDocument/didChange",
            #"{"textDocument": {"uri": "file:///schema.skan", "version": 2}, "contentChanges": [{"text": \#(ServerSession.quoted(changed))}]}"#
        )
        let delta = session.request(
            "textDocument/semanticTokens/full/delta",
            #"{"textDocument": {"uri": "file:///schema.skan"}, "previousResultId": "\#(resultId)"}"#)?["result"]
        guard case .array(let edits)? = delta?["edits"] else {
            Issue.record("no edits: \(String(describing: delta))")
            return
        }
        var applied = old
        for edit in edits.reversed() {
            let start = try #require(edit["start"]?.integer)
            let count = try #require(edit["deleteCount"]?.integer)
            applied.replaceSubrange(start..<start + count, with: Self.integers(edit["data"]))
        }
        let full = session.request(
            "textDocument/semanticTokens/full", #"{"textDocument": {"uri": "file:///schema.skan"}}"#)?["result"]
        #expect(applied == Self.integers(full?["data"]) && applied != old)
        // An unknown previous result gets the whole list.
        let unknown = session.request(
            "textDocument/semanticTokens/full/delta",
            #"{"textDocument": {"uri": "file:///schema.skan"}, "previousResultId": "nope"}"#)?["result"]
        #expect(Self.integers(unknown?["data"]) == applied)
    }
}
