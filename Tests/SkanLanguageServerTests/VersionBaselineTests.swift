import Foundation
import SkanCore
import SkanLanguageServer
import SkanTestSupport
import Testing

/// `skanc.against`: the errors of `check --against` on the document while it is edited, against the released
/// version the setting names (read here by a stand-in for `skanc lsp`'s file and git reader).
@Suite struct VersionBaselineTests {
    static let released = """
        schema T
        version 1
        flag paid at bit 0
        reserved bits 1...5
        coarse { high when paid  low otherwise }

        """

    /// A session whose setting is `against`, read by a reader that knows only "v1" (and says why for "broken").
    static func session(against: String?) -> ServerSession {
        var session = ServerSession()
        session.server = LanguageServer(version: "test") { _, against in
            switch against {
            case "v1": .schema(text: released, name: "v1:T.skan")
            case "broken": .unavailable("neither a file nor a git ref")
            default: .none
            }
        }
        let options = against.map { #", "initializationOptions": {"against": "\#($0)"}"# } ?? ""
        _ = session.request("initialize", #"{"capabilities": {}\#(options)}"#)
        _ = session.notify("initialized", "{}")
        return session
    }

    static func codes(_ diagnostics: [JSONDocument]) -> [String] {
        diagnostics.compactMap { $0["code"]?.string }
    }

    @Test func aMeaningChangeWithoutANewVersionIsAnErrorInTheEditor() throws {
        var session = Self.session(against: "v1")
        let changed = Self.released.replacingOccurrences(of: "high when paid", with: "medium when paid")
        let diagnostics = session.open(changed)
        #expect(Self.codes(diagnostics) == ["version-unchanged"])
        // At the version number, as `check --against` puts it.
        #expect(diagnostics.first?["range"]?["start"]?["line"]?.integer == 1)
        #expect(Self.codes(session.open(changed.replacingOccurrences(of: "version 1", with: "version 2"))).isEmpty)
        #expect(Self.codes(session.open(Self.released)).isEmpty)
        #expect(
            Self.codes(session.open(Self.released.replacingOccurrences(of: "version 1", with: "version 2")))
                == ["version-bump-unneeded"])
    }

    /// The quick fix writes the version the check asks for: one more for a meaning change, the old one when
    /// nothing changes meaning.
    @Test func theVersionQuickFixWritesTheVersionTheCheckAsksFor() {
        var session = Self.session(against: "v1")
        let changed = Self.released.replacingOccurrences(of: "high when paid", with: "medium when paid")
        for (text, title, version) in [
            (changed, "Replace '1' with '2'", "version 2"),
            (
                Self.released.replacingOccurrences(of: "version 1", with: "version 3"), "Replace '3' with '1'",
                "version 1"
            ),
        ] {
            _ = session.open(text)
            let params =
                #"{"textDocument": {"uri": "file:///schema.skan"}, "range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 0}}, "context": {"diagnostics": []}}"#
            guard case .array(let actions)? = session.request("textDocument/codeAction", params)?["result"],
                let action = actions.first
            else {
                Issue.record("no quick fix for \(text)")
                continue
            }
            #expect(action["title"]?.string == title)
            guard case .array(let edits)? = action["edit"]?["changes"]?["file:///schema.skan"], let edit = edits.first
            else {
                Issue.record("no edit: \(action)")
                continue
            }
            #expect(edit["newText"]?.string == String(version.dropFirst("version ".count)))
            #expect(
                edit["range"]?["start"]?["line"]?.integer == 1 && edit["range"]?["start"]?["character"]?.integer == 8)
        }
    }

    @Test func theSettingComesAndGoesThroughConfiguration() {
        var session = Self.session(against: nil)
        let changed = Self.released.replacingOccurrences(of: "high when paid", with: "medium when paid")
        #expect(Self.codes(session.open(changed)).isEmpty, "no setting, no version check")
        let on = session.notify("workspace/didChangeConfiguration", #"{"settings": {"skanc": {"against": "v1"}}}"#)
        #expect(Self.codes(ServerSession.diagnostics(in: on)) == ["version-unchanged"])
        let off = session.notify("workspace/didChangeConfiguration", #"{"settings": {"skanc": {}}}"#)
        #expect(ServerSession.diagnostics(in: off).isEmpty && off.count == 1, "checked again, without the baseline")
    }

    @Test func aBaselineThatCannotBeReadIsSaidOnceAndANewSchemaHasNone() {
        var broken = Self.session(against: "broken")
        let first = broken.notify(
            "textDocument/didOpen",
            #"{"textDocument": {"uri": "file:///T.skan", "languageId": "skan", "version": 1, "text": \#(ServerSession.quoted(Self.released))}}"#
        )
        #expect(first.count == 2)
        #expect(first.last?["params"]?["message"]?.string?.contains("neither a file nor a git ref") == true)
        let again = broken.notify(
            "textDocument/didChange",
            #"{"textDocument": {"uri": "file:///T.skan", "version": 2}, "contentChanges": [{"text": \#(ServerSession.quoted(Self.released))}]}"#
        )
        #expect(again.count == 1, "said once")
        var fresh = Self.session(against: "v0")
        #expect(Self.codes(fresh.open(Self.released)).isEmpty, "a schema the release did not have")
    }
}
