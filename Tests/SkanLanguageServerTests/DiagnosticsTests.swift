import Foundation
import SkanCompiler
import SkanCore
import SkanLanguageServer
import Testing

/// Diagnostics on open and on every change: the codes, severities and messages of `check` and `lint`, notes as
/// related information, ranges in UTF-16 code units.
@Suite struct DiagnosticsTests {
    static let broken = """
        schema T
        version 1

        event purchase
        event purchase

        flag bought at bit 0 "Achète — 🎉" when purchas

        coarse { low otherwise }
        """

    @Test func openPublishesWhatCheckSays() throws {
        var session = ServerSession.initialized()
        let diagnostics = session.open(Self.broken)
        let check = SchemaCompiler.compile(Self.broken).diagnostics
        #expect(diagnostics.count == check.count)
        #expect(diagnostics.map { $0["code"]?.string } == check.map(\.code.rawValue))
        #expect(diagnostics.allSatisfy { $0["severity"]?.integer == 1 && $0["source"]?.string == "skanc" })
        let typo = try #require(diagnostics.first { $0["code"]?.string == "unknown-name" })
        #expect(typo["message"]?.string == "no flag, field or event named 'purchas'; did you mean 'purchase'?")
        #expect(typo["range"]?["start"]?["line"]?.integer == 6)
        #expect(typo["range"]?["start"]?["character"]?.integer == 40)
        #expect(typo["range"]?["end"]?["character"]?.integer == 47)
        let duplicate = try #require(diagnostics.first { $0["code"]?.string == "duplicate" })
        guard case .array(let related)? = duplicate["relatedInformation"] else {
            Issue.record("no relatedInformation")
            return
        }
        #expect(related.first?["message"]?.string == "the first is here")
        #expect(related.first?["location"]?["range"]?["start"]?["line"]?.integer == 3)
        #expect(related.first?["location"]?["uri"]?.string == "file:///schema.skan")
    }

    @Test func aChangeRepublishesAndLintsACleanSchema() throws {
        var session = ServerSession.initialized()
        #expect(!session.open(Self.broken).isEmpty)
        let fixed = Self.broken.replacingOccurrences(of: "event purchase\nevent purchase", with: "event purchase")
            .replacingOccurrences(of: "when purchas\n", with: "when purchase\n")
        let params =
            #"{"textDocument": {"uri": "file:///schema.skan", "version": 2}, "contentChanges": [{"text": \#(ServerSession.quoted(fixed))}]}"#
        let messages = session.notify("textDocument/didChange", params)
        #expect(messages.first?["params"]?["version"]?.integer == 2)
        let diagnostics = ServerSession.diagnostics(in: messages)
        // It checks clean; what is left are lint warnings (bits 1...5 unused), severity 2.
        #expect(SchemaCompiler.compile(fixed).diagnostics.filter { $0.severity == .error }.isEmpty)
        #expect(!diagnostics.isEmpty)
        #expect(diagnostics.allSatisfy { $0["severity"]?.integer == 2 })
    }

    @Test func anIncrementalChangeIsAppliedAtItsRange() throws {
        var session = ServerSession.initialized()
        _ = session.open(Self.broken)
        // Replace "purchas" (line 6, units 40..<47, after the emoji) by "purchase".
        let params =
            #"{"textDocument": {"uri": "file:///schema.skan", "version": 2}, "contentChanges": [{"range": {"start": {"line": 6, "character": 40}, "end": {"line": 6, "character": 47}}, "text": "purchase"}]}"#
        let diagnostics = ServerSession.diagnostics(in: session.notify("textDocument/didChange", params))
        #expect(!diagnostics.contains { $0["code"]?.string == "unknown-name" })
        #expect(diagnostics.contains { $0["code"]?.string == "duplicate" })
    }

    /// A change whose range is not a range is not applied by guessing (it once replaced the whole document): the
    /// document stays as it was, and the client is told.
    @Test func aChangeWithAMalformedRangeIsRefusedAndTheDocumentKept() throws {
        var session = ServerSession.initialized()
        _ = session.open(Self.broken)
        let ranges = [
            #"{"start": {"line": 6}, "end": {"line": 6, "character": 47}}"#,
            #"{"start": {"line": 6, "character": 47}, "end": {"line": 6, "character": 40}}"#,
            #"{"start": {"line": -1, "character": 0}, "end": {"line": 0, "character": 0}}"#, "7",
        ]
        for range in ranges {
            let params =
                #"{"textDocument": {"uri": "file:///schema.skan", "version": 2}, "contentChanges": [{"range": \#(range), "text": "x"}]}"#
            let messages = session.notify("textDocument/didChange", params)
            #expect(messages.count == 1 && messages.first?["method"]?.string == "window/logMessage", "\(range)")
            #expect(messages.first?["params"]?["message"]?.string?.contains("not applied") == true)
        }
        // The document is still the one opened: the range that fixes its misspelled name still lands on it.
        let params =
            #"{"textDocument": {"uri": "file:///schema.skan", "version": 3}, "contentChanges": [{"range": {"start": {"line": 6, "character": 40}, "end": {"line": 6, "character": 47}}, "text": "purchase"}]}"#
        let diagnostics = ServerSession.diagnostics(in: session.notify("textDocument/didChange", params))
        #expect(!diagnostics.contains { $0["code"]?.string == "unknown-name" })
        #expect(diagnostics.contains { $0["code"]?.string == "duplicate" })
    }

    @Test func closeClearsTheDiagnostics() {
        var session = ServerSession.initialized()
        _ = session.open(Self.broken)
        let messages = session.notify("textDocument/didClose", #"{"textDocument": {"uri": "file:///schema.skan"}}"#)
        #expect(messages.count == 1)
        #expect(ServerSession.diagnostics(in: messages).isEmpty)
    }
}
