import SkanCore
import SkanLanguageServer
import SkanSchemaTools
import Testing

/// Formatting is `skanc fmt` as one edit of the whole document; none when formatted; refused with syntax
/// errors or on a document not open.
@Suite struct FormattingTests {
    static let unformatted =
        "schema  F\nversion 1\nflag   a at bit 0 \"A\"\nreserved bits 1...5\ncoarse { low otherwise }\n"
    static let params =
        #"{"textDocument": {"uri": "file:///schema.skan"}, "options": {"tabSize": 2, "insertSpaces": true}}"#

    @Test func anUnformattedDocumentIsReplacedWithFmtsLayout() throws {
        var session = ServerSession.initialized()
        _ = session.open(Self.unformatted)
        let responseAnswer = session.request("textDocument/formatting", Self.params)
        let response = try #require(responseAnswer)
        guard case .array(let edits)? = response["result"] else {
            Issue.record("no edits: \(response)")
            return
        }
        #expect(edits.count == 1)
        #expect(edits.first?["newText"]?.string == SchemaFormatter.format(Self.unformatted))
        #expect(edits.first?["range"]?["start"]?["line"]?.integer == 0)
        #expect(edits.first?["range"]?["end"]?["line"]?.integer == 5)
    }

    @Test func aFormattedDocumentNeedsNoEdit() throws {
        var session = ServerSession.initialized()
        _ = session.open(try #require(SchemaFormatter.format(Self.unformatted)))
        let responseAnswer = session.request("textDocument/formatting", Self.params)
        let response = try #require(responseAnswer)
        guard case .array(let edits)? = response["result"] else {
            Issue.record("no result")
            return
        }
        #expect(edits.isEmpty)
    }

    @Test func syntaxErrorsAndUnopenedDocumentsAreRefused() throws {
        var session = ServerSession.initialized()
        let unopenedAnswer = session.request("textDocument/formatting", Self.params)
        let unopened = try #require(unopenedAnswer)
        #expect(unopened["error"]?["code"]?.integer == -32602)
        #expect(unopened["error"]?["message"]?.string?.contains("didOpen") == true)
        _ = session.open("schema {")
        let brokenAnswer = session.request("textDocument/formatting", Self.params)
        let broken = try #require(brokenAnswer)
        #expect(broken["error"]?["code"]?.integer == -32803)
        #expect(broken["error"]?["message"]?.string?.contains("syntax errors") == true)
    }
}
