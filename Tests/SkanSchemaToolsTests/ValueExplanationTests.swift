import SkanCompiler
import SkanCore
import Testing

@testable import SkanSchemaTools

/// `skanc decode`'s explanation of a value: its wording.
@Suite struct ValueExplanationTests {
    @Test func aNameStartingWithAVowelTakesAn() throws {
        let text = "schema Adjust63\nversion 1\nflag a at bit 0\nreserved bits 1...5\ncoarse { low otherwise }"
        let schema = try #require(SchemaCompiler.compile(text).schema)
        let bad = ValueExplanation.explain("2", in: schema, windows: [.first])[0].text(schema: schema)
        #expect(bad == "2: not an Adjust63 v1 fine value: bit 1 is reserved\n")
        #expect(ValueExplanation.article(before: "Shop") == "a")
    }
}
