import SkanCompiler
import SkanCore
import SkanSchema
import Testing

@Suite struct LexerTests {
    private func kinds(_ text: String) -> [Token.Kind] {
        Lexer.tokenize(Array(text.utf8)).tokens.map(\.kind)
    }

    @Test func rangesSplitFromNumbers() {
        #expect(kinds("1...2") == [.integer, .closedRange, .integer, .endOfFile])
        #expect(kinds("0..<0.01") == [.integer, .halfOpenRange, .decimal, .endOfFile])
        #expect(kinds("100...") == [.integer, .closedRange, .endOfFile])
    }

    @Test func comparisonOperators() {
        #expect(
            kinds("== != < <= > >= =") == [
                .comparison(.equal), .comparison(.notEqual), .comparison(.less), .comparison(.lessOrEqual),
                .comparison(.greater), .comparison(.greaterOrEqual), .equals, .endOfFile,
            ])
    }

    /// Classic Mac line endings (CR alone) end lines as LF and CR LF do: the same tokens on the same lines,
    /// comments and strings ending at the line's end, and the same diagnostics at the same places.
    @Test(arguments: ["\r", "\r\n"])
    func everyLineEndingGivesTheSameLines(_ ending: String) throws {
        let text = """
            schema T # the header
            version 1
            flag a at bit 0 "A"
            reserved bits 1...5
            coarse {
              low when b
              medium otherwise
            }
            """
        let other = text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: ending)
        let lines = Lexer.tokenize(Array(text.utf8)).tokens.map { [$0.location.line, $0.location.column] }
        #expect(Lexer.tokenize(Array(other.utf8)).tokens.map { [$0.location.line, $0.location.column] } == lines)
        let diagnostics = SchemaCompiler.compile(text).diagnostics.map { "\($0.location?.line ?? 0):\($0.message)" }
        #expect(!diagnostics.isEmpty)
        #expect(
            SchemaCompiler.compile(other).diagnostics.map { "\($0.location?.line ?? 0):\($0.message)" } == diagnostics)
    }

    @Test func locationsAreOneBasedAndCountBytes() {
        let tokens = Lexer.tokenize(Array("flag a\n  \"é\" b # comment\nc".utf8)).tokens
        #expect(tokens.map(\.location.description) == ["1:1", "1:6", "2:3", "2:8", "3:1", "3:2"])
        #expect(tokens.map(\.startsLine) == [true, false, true, false, true, false])
    }

    @Test func byteOrderMarkIsSkipped() {
        let tokens = Lexer.tokenize([0xEF, 0xBB, 0xBF] + Array("schema".utf8)).tokens
        #expect(tokens[0].text == "schema")
        #expect(tokens[0].location.column == 1)
    }

    @Test func stringEscapesDecode() {
        let (tokens, diagnostics) = Lexer.tokenize(Array(#""a\"b\\c\nd\te\u{E9}""#.utf8))
        #expect(diagnostics.isEmpty)
        #expect(tokens[0].text == "a\"b\\c\nd\te\u{E9}")
    }

    @Test func badStringsAreReportedAndLexingGoesOn() {
        let (tokens, diagnostics) = Lexer.tokenize(Array("\"open\nx \"bad \\q\" \"\\u{110000}\"".utf8))
        #expect(diagnostics.map { $0.location?.description } == ["1:1", "2:8", "2:13"])
        #expect(diagnostics.allSatisfy { $0.code == .syntax })
        #expect(tokens.contains { $0.kind == .identifier && $0.text == "x" })
    }

    @Test func strayCharactersAreOneDiagnosticPerRun() {
        let (tokens, diagnostics) = Lexer.tokenize(Array("a $%^ b \u{0}".utf8) + [0xFF, 0x20])
        #expect(tokens.map(\.text) == ["a", "b", ""])
        #expect(diagnostics.count == 2)
        #expect(diagnostics[0].message.contains("3 unexpected characters"))
        #expect(diagnostics[1].message.contains("NUL"))
    }
}
