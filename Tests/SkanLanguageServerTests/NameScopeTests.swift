import Foundation
import SkanCore
import SkanLanguageServer
import Testing

/// Names found wherever they stand on a line and resolved by scope: a one-line field block and coarse block, and
/// cases named like an event (`paid`), a flag (`buyer`) and a coarse value (`low`).
@Suite struct NameScopeTests {
    static let schema = """
        schema S
        version 1
        event paid
        flag buyer at bit 0 when paid
        field level at bits 1...2 { none = 0  paid = 1  low = 2  buyer = 3 }
        coarse { low otherwise }
        lock window 1 when level == paid or buyer or level >= low

        """

    static func at(_ line: Int, _ word: String) -> String { NamesTests.at(line, word, in: schema) }

    static func session() -> ServerSession {
        var session = ServerSession.initialized()
        _ = session.open(schema)
        return session
    }

    /// Where each occurrence of the name under `position` stands, `line:character`.
    static func references(_ session: inout ServerSession, _ position: String) -> [String] {
        let params = "{\(position), \"context\": {\"includeDeclaration\": true}}"
        guard case .array(let locations)? = session.request("textDocument/references", params)?["result"] else {
            return []
        }
        return locations.map {
            "\($0["range"]?["start"]?["line"]?.integer ?? -1):\($0["range"]?["start"]?["character"]?.integer ?? -1)"
        }
    }

    @Test func casesDeclaredOnOneLineAreFound() {
        var session = Self.session()
        let hover = NamesTests.hover(&session, Self.at(4, "paid"))
        #expect(
            hover?.hasPrefix("**paid**: case of level, code 1 in bits 1...2 → fine value +2") == true, "\(hover ?? "")")
        // The case `buyer` is read nowhere: `or buyer` below is the flag.
        #expect(Self.references(&session, Self.at(4, "buyer")) == ["4:57"])
    }

    @Test func aCaseNamedLikeAnEventOrAFlagIsTheCaseAfterAComparison() {
        var session = Self.session()
        // `level == paid`: the case, not the event; `or buyer`: the flag, not the case.
        #expect(Self.references(&session, Self.at(6, "paid")) == ["4:38", "6:28"])
        #expect(Self.references(&session, Self.at(2, "paid")) == ["2:6", "3:25"])
        #expect(Self.references(&session, Self.at(6, "buyer")) == ["3:5", "6:36"])
        let definition = session.request("textDocument/definition", "{\(Self.at(6, "paid"))}")?["result"]
        #expect(definition?["range"]?["start"]?["line"]?.integer == 4)
        // Renaming the case touches the case alone, and is allowed.
        let renamed = session.request("textDocument/rename", "{\(Self.at(6, "paid")), \"newName\": \"settled\"}")
        guard case .array(let edits)? = renamed?["result"]?["changes"]?["file:///schema.skan"] else {
            Issue.record("no edits: \(String(describing: renamed))")
            return
        }
        #expect(edits.map { $0["range"]?["start"]?["line"]?.integer } == [4, 6])
    }

    @Test func aCoarseHeadIsNoCaseOfTheSameName() {
        var session = Self.session()
        // `coarse { low otherwise }`: `low` is the coarse value; the case `low` is read only by the lock.
        let head = session.request("textDocument/hover", "{\(Self.at(5, "low"))}")?["result"]
        #expect(head.map { if case .null = $0 { true } else { false } } == true)
        #expect(Self.references(&session, Self.at(4, "low")) == ["4:48", "6:54"])
        let renamed = session.request("textDocument/rename", "{\(Self.at(4, "low")), \"newName\": \"small\"}")
        guard case .array(let edits)? = renamed?["result"]?["changes"]?["file:///schema.skan"] else {
            Issue.record("the case was not renamed: \(String(describing: renamed))")
            return
        }
        #expect(edits.map { $0["range"]?["start"]?["line"]?.integer } == [4, 6])
    }
}
