import SkanSchema
import Testing

@testable import SkanCompiler

@Suite struct SwiftLiteralsTests {
    @Test func stringLiteralsEscapeEverythingThatCouldEndThemEarly() {
        #expect(SwiftLiterals.string("a\"b\\c\\(x)\n\"\"\"\u{0}\t") == #""a\"b\\c\\(x)\n\"\"\"\u{0}\t""#)
    }

    @Test func docCommentsSplitLinesAndSpellOutControlCharacters() {
        #expect(
            SwiftLiterals.docComment("one\r\ntwo\rthree\nfour\u{0}*/", indent: "  ")
                == ["  /// one", "  /// two", "  /// three", "  /// four\\u{0}*/"])
        #expect(SwiftLiterals.docComment(nil, indent: "") == [])
    }

    @Test func keywordsAreEscaped() {
        #expect(SwiftNames.identifier("default") == "`default`")
        #expect(SwiftNames.identifier("Type") == "`Type`")
        #expect(SwiftNames.identifier("paymentTier") == "paymentTier")
        #expect(SwiftNames.identifier(GeneratedNames.typeName(ofField: "type")) == "`Type`")
        #expect(GeneratedNames.typeName(ofField: "paymentTier") == "PaymentTier")
    }
}
