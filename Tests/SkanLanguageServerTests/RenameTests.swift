import SkanCore
import SkanLanguageServer
import Testing

/// Rename of a flag, field, case or event: every place it is written, and refused when the renamed schema
/// would have an error it did not have (a name taken, a reserved output column, not a name at all).
@Suite struct RenameTests {
    static func session(annotations: Bool = false) -> ServerSession {
        var session = ServerSession()
        let capabilities =
            annotations
            ? #"{"workspace": {"workspaceEdit": {"documentChanges": true, "changeAnnotationSupport": {}}}}"# : "{}"
        _ = session.request("initialize", #"{"capabilities": \#(capabilities)}"#)
        _ = session.open(NamesTests.schema)
        return session
    }

    /// The edits of a rename as `line:character` of each, or the error's message.
    static func rename(
        _ session: inout ServerSession, _ position: String, to newName: String
    ) -> (edits: [String], error: String?) {
        let answer = session.request("textDocument/rename", #"{\#(position), "newName": "\#(newName)"}"#)
        if let message = answer?["error"]?["message"]?.string { return ([], message) }
        let edits: JSONDocument?
        if case .array(let changes)? = answer?["result"]?["documentChanges"] {
            edits = changes.first?["edits"]
        } else {
            edits = answer?["result"]?["changes"]?["file:///schema.skan"]
        }
        guard case .array(let list)? = edits else { return ([], "no edits") }
        return (
            list.map { edit in
                let start = edit["range"]?["start"]
                let text = edit["newText"]?.string ?? ""
                return "\(start?["line"]?.integer ?? -1):\(start?["character"]?.integer ?? -1) \(text)"
            }, nil
        )
    }

    @Test func aFieldEverywhereItIsWritten() {
        var session = Self.session()
        let renamed = Self.rename(&session, NamesTests.at(17, "stage"), to: "depth")
        #expect(renamed.error == nil)
        #expect(renamed.edits == ["8:6 depth", "17:14 depth", "26:19 depth"])
    }

    @Test func aCaseOnlyWhereItIsThatFieldsCase() {
        var session = Self.session()
        #expect(Self.rename(&session, NamesTests.at(26, "buyer"), to: "payer").edits == ["10:2 payer", "26:28 payer"])
    }

    @Test func anEventAndItsMeasures() {
        var session = Self.session()
        #expect(
            Self.rename(&session, NamesTests.at(3, "purchase"), to: "buy").edits == [
                "3:6 buy", "6:35 buy", "9:17 buy", "10:17 buy",
            ])
    }

    @Test func prepareNamesTheRangeOrNothing() {
        var session = Self.session()
        let prepared = session.request("textDocument/prepareRename", "{\(NamesTests.at(18, "paid"))}")
        #expect(prepared?["result"]?["placeholder"]?.string == "paid")
        #expect(prepared?["result"]?["range"]?["start"]?["character"]?.integer == 14)
        let nothing = session.request("textDocument/prepareRename", "{\(NamesTests.at(17, "high"))}")
        guard case .null? = nothing?["result"] else {
            Issue.record("a coarse value is renamed: \(String(describing: nothing))")
            return
        }
    }

    @Test func refusedWhenTheNewNameCollides() {
        var session = Self.session()
        // Another flag or field's name; another case of the same field; an output column; a keyword; no name.
        let refusals = [
            (NamesTests.at(6, "paid"), "stage"), (NamesTests.at(9, "whale"), "buyer"),
            (NamesTests.at(6, "paid"), "fine_value"), (NamesTests.at(6, "paid"), "and"),
            (NamesTests.at(6, "paid"), "2paid"), (NamesTests.at(4, "level_up"), "purchase"),
        ].map { Self.rename(&session, $0.0, to: $0.1).error }
        #expect(refusals.map { $0 != nil } == [true, true, true, true, true, true], "\(refusals)")
        #expect(refusals[0]?.contains("'stage' is already declared") == true)
        #expect(refusals[2]?.contains("fine_value") == true)
        #expect(refusals[4]?.hasPrefix("'2paid' is not a name") == true)
        // The document is unchanged, and a free name still renames.
        #expect(Self.rename(&session, NamesTests.at(6, "paid"), to: "payer").edits == ["6:5 payer", "18:14 payer"])
    }

    @Test func aFieldCalledDaysLeavesCountOfDaysAlone() {
        var session = ServerSession.initialized()
        _ = session.open(
            "schema D\nversion 2\nfield days at bits 0...5 count of days\ncoarse { low when days >= n3 }\n")
        let position = #""textDocument": {"uri": "file:///schema.skan"}, "position": {"line": 2, "character": 7}"#
        #expect(Self.rename(&session, position, to: "age").edits == ["2:6 age", "3:18 age"])
    }

    @Test func annotatedForClientsThatConfirm() {
        var session = Self.session(annotations: true)
        let answer = session.request("textDocument/rename", #"{\#(NamesTests.at(6, "paid")), "newName": "payer"}"#)
        let annotation = answer?["result"]?["changeAnnotations"]?["rename"]
        #expect(annotation?["label"]?.string == "Rename 'paid' to 'payer'")
        #expect(annotation?["description"]?.string?.contains("skanc diff") == true)
        #expect(Self.rename(&session, NamesTests.at(6, "paid"), to: "payer").edits == ["6:5 payer", "18:14 payer"])
    }
}
