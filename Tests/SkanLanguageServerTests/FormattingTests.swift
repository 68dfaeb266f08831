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

    @Test func unopenedDocumentsAreRefused() throws {
        var session = ServerSession.initialized()
        let unopenedAnswer = session.request("textDocument/formatting", Self.params)
        let unopened = try #require(unopenedAnswer)
        #expect(unopened["error"]?["code"]?.integer == -32602)
        #expect(unopened["error"]?["message"]?.string?.contains("didOpen") == true)
    }

    /// Format on save asks at every save: a document with syntax errors gets no edits (never an error), and the
    /// reason once per version.
    @Test func syntaxErrorsGiveNoEditsAndTheReasonOncePerVersion() throws {
        var session = ServerSession.initialized()
        _ = session.open("schema {")
        let request = #"{"jsonrpc": "2.0", "id": 7, "method": "textDocument/formatting", "params": \#(Self.params)}"#
        func format() -> [JSONDocument] {
            session.server.handle(Array(request.utf8)).compactMap { bytes in
                var reader = JSONReader(bytes: bytes, maximumDepth: 64, tooDeep: "deep")
                return try? reader.document()
            }
        }
        let first = format()
        #expect(first.count == 2)
        guard case .array(let edits)? = first.first?["result"] else {
            Issue.record("no result: \(first)")
            return
        }
        #expect(edits.isEmpty && first.first?["error"] == nil)
        #expect(first.last?["method"]?.string == "window/showMessage")
        #expect(first.last?["params"]?["message"]?.string?.contains("syntax errors") == true)
        // The next save of the same version: the answer alone.
        #expect(format().count == 1)
        _ = session.notify(
            "textDocument/didChange",
            #"{"textDocument": {"uri": "file:///schema.skan", "version": 5}, "contentChanges": [{"text": "schema {{"}]}"#
        )
        #expect(format().count == 2)
    }
}

/// A client that escapes characters beyond the BMP as surrogate pairs (pygls, and so pytest-lsp, by default) gets
/// them back whole from formatting, and one that sends half a pair gets a JSON-RPC error, not U+FFFD in its file.
@Suite struct EscapedSurrogateTests {
    @Test func formattingKeepsAnEscapedEmoji() throws {
        var session = ServerSession.initialized()
        let unformatted =
            "schema  F\nversion 1\nflag   a at bit 0 \"Payé 🎉\"\nreserved bits 1...5\ncoarse { low otherwise }\n"
        let escaped = ServerSession.quoted(unformatted).split(separator: "🎉", omittingEmptySubsequences: false)
            .joined(separator: #"\ud83c\udf89"#)
        #expect(escaped.contains(#"\ud83c\udf89"#))
        _ = session.notify(
            "textDocument/didOpen",
            #"{"textDocument": {"uri": "file:///schema.skan", "languageId": "skan", "version": 1, "text": \#(escaped)}}"#
        )
        let response = session.request("textDocument/formatting", FormattingTests.params)
        let answer = try #require(response)
        guard case .array(let edits)? = answer["result"] else {
            Issue.record("no edits: \(answer)")
            return
        }
        let text = try #require(edits.first?["newText"]?.string)
        #expect(text.contains("\"Payé 🎉\"") && !text.contains("\u{FFFD}"))
    }

    @Test func halfAPairIsAParseError() throws {
        var session = ServerSession.initialized()
        let answers = session.send(
            #"{"jsonrpc": "2.0", "id": 7, "method": "textDocument/hover", "params": {"x": "\ud83c"}}"#)
        let answer = try #require(answers.last)
        #expect(answer["error"]?["code"]?.integer == -32700, "\(answer)")
        #expect(answer["error"]?["message"]?.string?.contains("surrogate") == true, "\(answer)")
    }
}

/// A document written with CR LF or CR keeps its line ending when formatted (the formatter writes LF); one with
/// LF keeps LF.
@Suite struct FormattingLineEndingTests {
    @Test(arguments: ["\r\n", "\r"])
    func theDocumentsLineEndingStays(_ ending: String) throws {
        var session = ServerSession.initialized()
        let crlf = FormattingTests.unformatted.split(separator: "\n", omittingEmptySubsequences: false)
            .joined(separator: ending)
        _ = session.open(crlf)
        let response = session.request("textDocument/formatting", FormattingTests.params)
        let answer = try #require(response)
        guard case .array(let edits)? = answer["result"] else {
            Issue.record("no edits: \(answer)")
            return
        }
        let text = try #require(edits.first?["newText"]?.string)
        let expected = try #require(SchemaFormatter.format(FormattingTests.unformatted))
        #expect(text == expected.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: ending))
        // Formatted already, in CR LF: no edit.
        var again = ServerSession.initialized()
        _ = again.open(text)
        let second = again.request("textDocument/formatting", FormattingTests.params)
        guard case .array(let none)? = try #require(second)["result"] else {
            Issue.record("no result")
            return
        }
        #expect(none.isEmpty)
    }
}
