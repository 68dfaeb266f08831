import SkanCore
import SkanLanguageServer
import Testing

/// UTF-8 byte columns to the protocol's UTF-16 positions and back, exactly, with names and descriptions in any
/// script.
@Suite struct LineTableTests {
    static let text = "schema T\r\nflag bought at bit 0 \"Achète — 🎉\" when purchas\nlast"

    @Test func bytesBecomeUTF16CodeUnits() {
        let lines = LineTable(Self.text)
        #expect(lines.lineCount == 3)
        // è is 2 bytes and 1 unit, — 3 bytes and 1 unit, 🎉 4 bytes and 2 units: byte 46 is unit 40.
        #expect(lines.position(line: 2, column: 46) == TextPosition(line: 1, character: 40))
        #expect(lines.position(line: 1, column: 1) == TextPosition(line: 0, character: 0))
        // A CR before the LF is no character; past the end is the end.
        #expect(lines.position(line: 1, column: 99) == TextPosition(line: 0, character: 8))
        #expect(lines.position(line: 3, column: 5) == TextPosition(line: 2, character: 4))
    }

    /// The protocol's third line ending, CR alone, ends a line as LF and CR LF do.
    @Test func aCarriageReturnAloneEndsALine() {
        let lines = LineTable("schema T\rversion 1\r\nflag a\rlast")
        #expect(lines.lineCount == 4)
        #expect(lines.position(line: 2, column: 9) == TextPosition(line: 1, character: 8))
        #expect(lines.position(line: 3, column: 99) == TextPosition(line: 2, character: 6))
        #expect(lines.offset(of: TextPosition(line: 3, character: 2)) == 29)
    }

    @Test func aRangeCoversTheWordAtItsStart() {
        let lines = LineTable(Self.text)
        let range = lines.range(at: SourceLocation(line: 2, column: 46, offset: 55))
        #expect(range.start == TextPosition(line: 1, character: 40))
        #expect(range.end == TextPosition(line: 1, character: 47))
        // A quote is one character; the emoji, two units.
        let quote = lines.range(at: SourceLocation(line: 2, column: 22, offset: 0))
        #expect(quote.end.character - quote.start.character == 1)
        let emoji = lines.range(at: SourceLocation(line: 2, column: 35, offset: 0))
        #expect(emoji.start.character == 31)
        #expect(emoji.end.character == 33)
        let wholeLine = lines.range(at: SourceLocation(line: 3, column: 0, offset: 0))
        #expect(wholeLine.start == TextPosition(line: 2, character: 0))
        #expect(wholeLine.end == TextPosition(line: 2, character: 4))
    }

    /// A document that starts with a byte order mark: the compiler's columns of line 1 start after it, the
    /// client's positions count U+FEFF as one character. Before, line-1 diagnostics landed 3 characters early.
    @Test func aByteOrderMarkIsOneCharacterBeforeColumnOne() throws {
        let lines = LineTable("\u{FEFF}schema Taken\nversion 1\n")
        #expect(lines.position(line: 1, column: 1) == TextPosition(line: 0, character: 1))
        let name = lines.range(at: SourceLocation(line: 1, column: 8, offset: 10))
        #expect(name.start == TextPosition(line: 0, character: 8) && name.end == TextPosition(line: 0, character: 13))
        #expect(lines.position(line: 2, column: 1) == TextPosition(line: 1, character: 0))
        let whole = lines.range(at: SourceLocation(line: 1, column: 0, offset: 0))
        #expect(whole.start.character == 0 && whole.end.character == 13)
        // Through the server: an unknown keyword on line 1 is flagged where the client sees it.
        var session = ServerSession.initialized()
        let diagnostics = session.open("\u{FEFF}schemaa T\nversion 1\n")
        let start = try #require(diagnostics.first?["range"]?["start"])
        #expect(start["line"]?.integer == 0 && start["character"]?.integer == 1, "\(diagnostics)")
    }

    @Test func positionsGoBackToTheirBytes() {
        let lines = LineTable(Self.text)
        let bytes = Array(Self.text.utf8)
        for column in 1...47 {
            let position = lines.position(line: 2, column: column)
            let offset = lines.offset(of: position)
            // Every column that starts a character comes back to its byte.
            if column - 1 + 10 < bytes.count, bytes[column - 1 + 10] & 0xC0 != 0x80 {
                #expect(offset == 10 + column - 1, "column \(column)")
            }
        }
    }
}
