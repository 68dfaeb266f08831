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

    /// A derived flag's or field's condition reads the flags and fields before it: not itself, not later ones.
    @Test func aDerivedConditionOffersOnlyWhatItCanRead() {
        let tail = "\nfield later at bits 4...5 { none = 0 }\ncoarse { low otherwise }\n"
        #expect(
            Self.labels(Self.header + "flag paid at bit 3 when |" + tail) == [
                "purchase", "sign_up", "registered", "tier", "hours", "not",
            ])
        #expect(
            Self.labels(Self.header + "field late at bits 3...4 {\n  a = 1 when |\n  b = 0 otherwise\n}" + tail)
                == ["purchase", "sign_up", "registered", "tier", "hours", "not"])
        // A coarse rule reads every flag and field.
        #expect(
            Self.labels(
                Self.header + "flag paid at bit 3\nfield later at bits 4...5 { none = 0 }\ncoarse { low when | }\n")
                == [
                    "purchase", "sign_up", "registered", "tier", "paid", "later", "hours", "not",
                ])
    }

    @Test func sumOnlyAfterAnEventWithAValue() {
        #expect(Self.labels(Self.header + "coarse { low when sign_up.| }") == ["count"])
        #expect(Self.labels(Self.header + "coarse { low when purchase.| }") == ["count", "sum"])
    }

    @Test func nothingInsideAComment() {
        #expect(Self.labels(Self.header + "# flag |") == [])
        #expect(Self.labels(Self.header + "coarse { low otherwise } # when |") == [])
        // A `#` in a string starts no comment.
        #expect(Self.labels(Self.header + "flag paid at bit 3 \"#1\" when |").contains("registered"))
    }

    @Test func whatFollowsLockAtValueAndARuleHead() {
        #expect(Self.labels(Self.header + "lock |") == ["window", "windows", "when", "after"])
        #expect(Self.labels(Self.header + "flag paid at |") == ["bit", "bits"])
        let currencies = Self.labels(Self.header + "event gift value |")
        #expect(currencies.contains("USD") && currencies.contains("JPY") && currencies.count > 100)
        #expect(Self.labels(Self.header + "coarse {\n  low |\n}") == ["when", "otherwise"])
        #expect(Self.labels(Self.header + "coarse { low |") == ["when", "otherwise"])
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
        #expect(Self.labels(Self.header + "reserved bits 3...4 |").isEmpty)
    }
}
