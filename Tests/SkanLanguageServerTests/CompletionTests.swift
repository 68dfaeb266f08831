import Foundation
import SkanCore
import SkanLanguageServer
import Testing

/// Completion offers what the grammar takes where the cursor stands: keywords at the start of a declaration,
/// coarse values at the start of a rule, flags, fields and events in conditions, a field's cases after a
/// comparison, `count` and `sum` after an event, events in sources.
@Suite struct CompletionTests {
    /// `schema` with the cursor at `|` (removed): the labels offered there.
    static func labels(_ schema: String) -> [String] {
        let cursor = schema.range(of: "|")!
        let text = schema.replacingCharacters(in: cursor, with: "")
        let before = schema[..<cursor.lowerBound]
        let line = before.filter { $0 == "\n" }.count
        let character = (before.split(separator: "\n", omittingEmptySubsequences: false).last ?? "").utf16.count
        var session = ServerSession.initialized()
        _ = session.open(text)
        let answer = session.request(
            "textDocument/completion",
            #"{"textDocument": {"uri": "file:///schema.skan"}, "position": {"line": \#(line), "character": \#(character)}}"#
        )
        guard case .array(let items)? = answer?["result"] else { return ["not a list: \(String(describing: answer))"] }
        return items.compactMap { $0["label"]?.string }
    }

    static let header = """
        schema Shop
        version 2
        event purchase value USD
        event sign_up
        flag registered at bit 0 when sign_up
        field tier at bits 1...2 {
          none = 0
          low  = 1
          high = 2
        }

        """

    @Test func keywordsStartADeclaration() {
        let keywords = ["event", "flag", "field", "reserved", "coarse", "lock", "schema", "version"]
        #expect(Self.labels(Self.header + "|") == keywords)
        #expect(Self.labels(Self.header + "fi|") == keywords)
        #expect(Self.labels(Self.header + "  |\n") == keywords)
    }

    @Test func coarseValuesStartARule() {
        #expect(Self.labels(Self.header + "coarse {\n  |\n}") == ["high", "medium", "low", "nothing"])
        #expect(Self.labels(Self.header + "coarse {\n  me|\n}") == ["high", "medium", "low", "nothing"])
        // A field's block declares cases: nothing to complete there.
        #expect(Self.labels("schema S\nversion 1\nfield f at bits 0...1 {\n  |\n}").isEmpty)
    }

    @Test func conditionsTakeFlagsFieldsAndEvents() {
        let operands = ["purchase", "sign_up", "registered", "tier", "hours", "not"]
        #expect(Self.labels(Self.header + "coarse { high when |") == operands)
        #expect(Self.labels(Self.header + "coarse { high when registered and ti|") == operands)
        #expect(Self.labels(Self.header + "lock window 1 when not (|") == operands)
        #expect(Self.labels(Self.header + "coarse { high when registered or |\n}") == operands)
    }

    @Test func aComparisonTakesTheFieldsCases() {
        #expect(Self.labels(Self.header + "coarse { high when tier >= |") == ["none", "low", "high"])
        #expect(Self.labels(Self.header + "coarse { high when tier == h|") == ["none", "low", "high"])
        // An event's count is compared with a number, a flag with nothing.
        #expect(Self.labels(Self.header + "coarse { high when registered != |").isEmpty)
    }

    @Test func anEventHasCountAndSum() {
        #expect(Self.labels(Self.header + "lock window 1 when purchase.|") == ["count", "sum"])
        #expect(Self.labels(Self.header + "lock window 1 when purchase.co|") == ["count", "sum"])
        #expect(Self.labels(Self.header + "lock window 1 when tier.|").isEmpty)
    }

    @Test func sourcesTakeEvents() {
        #expect(Self.labels(Self.header + "field n at bit 3 count of |") == ["purchase", "sign_up", "days"])
        #expect(
            Self.labels(Self.header + "field r at bits 3...4 buckets amount of purchase + |") == [
                "purchase", "sign_up",
            ])
    }

    @Test func nothingInsideNamesStringsOrAfterNumbers() {
        #expect(Self.labels(Self.header + "flag x at bit 3 \"a |description\"").isEmpty)
        #expect(Self.labels(Self.header + "flag x at |").isEmpty)
        #expect(Self.labels(Self.header + "reserved bits 3...4 |").isEmpty)
    }
}
