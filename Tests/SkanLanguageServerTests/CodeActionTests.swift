import Foundation
import SkanCore
import SkanLanguageServer
import Testing

/// A diagnostic that suggests a name ("did you mean 'paid'?", or a currency code) comes with a quick fix that
/// writes it.
@Suite struct CodeActionTests {
    static let schema = """
        schema Fixes
        version 2
        event purchase value USB
        flag paid at bit 0 "Payé 🎉" when purchse
        field rank at bits 1...2 {
          none = 0
          top  = 1
        }
        reserved bits 3...5
        coarse { high when rank == tpo or paied  low otherwise }

        """

    static func actions(lines: ClosedRange<Int>, in text: String = schema) -> [JSONDocument] {
        var session = ServerSession.initialized()
        _ = session.open(text)
        let range =
            #"{"start": {"line": \#(lines.lowerBound), "character": 0}, "end": {"line": \#(lines.upperBound), "character": 0}}"#
        let answer = session.request(
            "textDocument/codeAction",
            #"{"textDocument": {"uri": "file:///schema.skan"}, "range": \#(range), "context": {"diagnostics": []}}"#)
        guard case .array(let actions)? = answer?["result"] else { return [] }
        return actions
    }

    /// `title: line:start-end -> text` for each action's one edit.
    static func summary(_ action: JSONDocument) -> String {
        guard case .object? = action["edit"]?["changes"],
            case .array(let edits)? = action["edit"]?["changes"]?["file:///schema.skan"], edits.count == 1
        else { return "no single edit" }
        let range = edits[0]["range"]
        let line = range?["start"]?["line"]?.integer ?? -1
        let start = range?["start"]?["character"]?.integer ?? -1
        let end = range?["end"]?["character"]?.integer ?? -1
        return "\(action["title"]?.string ?? ""): \(line):\(start)-\(end) -> \(edits[0]["newText"]?.string ?? "")"
    }

    @Test func everySuggestionIsAQuickFix() {
        #expect(
            Self.actions(lines: 0...10).map(Self.summary) == [
                "Replace 'USB' with 'USD': 2:21-24 -> USD",
                "Replace 'purchse' with 'purchase': 3:34-41 -> purchase",
                "Replace 'tpo' with 'top': 9:27-30 -> top",
                "Replace 'paied' with 'paid': 9:34-39 -> paid",
            ])
        let first = Self.actions(lines: 3...3)
        #expect(first.count == 1)
        #expect(first.first?["kind"]?.string == "quickfix")
        #expect(first.first?["isPreferred"].map { if case .bool(true) = $0 { true } else { false } } == true)
        // The diagnostic it fixes, as published.
        guard case .array(let fixed)? = first.first?["diagnostics"] else {
            Issue.record("no diagnostics on the action")
            return
        }
        #expect(fixed.map { $0["code"]?.string } == ["unknown-name"])
    }

    /// A lint that spells out its fix has it as a quick fix: bits no declaration holds are marked reserved, on
    /// lines of their own before the first coarse block.
    @Test func unusedBitsAreMarkedReserved() {
        let actions = Self.actions(
            lines: 0...0, in: "schema U\nversion 1\nflag a at bit 0\nflag b at bit 2\ncoarse { low otherwise }\n")
        #expect(
            actions.map(Self.summary) == [
                "Insert 'reserved bit 1; reserved bits 3...5': 4:0-0 -> reserved bit 1\nreserved bits 3...5\n\n"
            ])
    }

    /// An amount between two whole units of its currency is rewritten as the bound it means, in UTF-16
    /// columns after non-ASCII text on the line.
    @Test func amountsBetweenUnitsAreWrittenWhole() {
        let actions = Self.actions(
            lines: 0...9,
            in: "schema A\nversion 1\nevent buy value USD\nflag big at bit 0 \"Gros 🎉\" when buy.sum > 9.995\n"
                + "field r at bits 1...2 buckets amount of buy { low = 0 0..<4.995  high = 1 4.995... }\n"
                + "reserved bits 3...5\ncoarse { high when big and r == high  low otherwise }\n")
        #expect(
            actions.map(Self.summary) == [
                "Replace 'buy.sum > 9.995' with 'buy.sum >= 10': 3:33-48 -> buy.sum >= 10",
                "Replace '0..<4.995' with '0..<5': 4:54-63 -> 0..<5",
                "Replace '4.995' with '5': 4:74-79 -> 5",
            ])
    }

    @Test func onlyTheRangeAsked() {
        #expect(Self.actions(lines: 4...7).isEmpty)
        #expect(Self.actions(lines: 9...9).count == 2)
    }

    @Test func theFixesMendTheDocument() {
        var session = ServerSession.initialized()
        _ = session.open(Self.schema)
        let answer = session.request(
            "textDocument/codeAction",
            #"{"textDocument": {"uri": "file:///schema.skan"}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 10, "character": 0}}, "context": {"diagnostics": []}}"#
        )
        guard case .array(let actions)? = answer?["result"] else {
            Issue.record("no actions")
            return
        }
        // Applied as a client does, last first so that earlier ranges hold: the document then has no findings.
        var published: [JSONDocument] = []
        for action in actions.reversed() {
            guard case .array(let edits)? = action["edit"]?["changes"]?["file:///schema.skan"], let edit = edits.first,
                let range = edit["range"], let newText = edit["newText"]?.string
            else { continue }
            func position(_ end: String) -> String {
                let line = range[end]?["line"]?.integer ?? -1
                return #"{"line": \#(line), "character": \#(range[end]?["character"]?.integer ?? -1)}"#
            }
            let change =
                #"{"range": {"start": \#(position("start")), "end": \#(position("end"))}, "text": "\#(newText)"}"#
            published = ServerSession.diagnostics(
                in: session.notify(
                    "textDocument/didChange",
                    #"{"textDocument": {"uri": "file:///schema.skan", "version": 2}, "contentChanges": [\#(change)]}"#))
        }
        #expect(actions.count == 4)
        #expect(published.isEmpty)
    }
}
