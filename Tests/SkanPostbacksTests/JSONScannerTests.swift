import SkanCompiler
import Testing

@testable import SkanPostbacks

@Suite struct JSONScannerTests {
    /// Scans one string value; nil when the scanner rejects it.
    func scan(_ json: String) -> (text: String, escapes: Bool, next: Int)? {
        let bytes = Array(json.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer)
            guard let span = try? scanner.scanString() else { return nil }
            return (String(decoding: buffer[span.start..<span.end], as: UTF8.self), span.hasEscapes, scanner.index)
        }
    }

    /// Strings of every length around the scanner's 8- and 16-byte steps, with the bytes its word test
    /// flags (space and `!` share a test with the quote) at every position.
    @Test func stringsEndAtTheirClosingQuote() {
        for length in 0...40 {
            for filler in ["a", " ", "!", "é", "#"] {
                let text = String(repeating: filler, count: length)
                let result = scan("\"\(text)\",\"x\"")
                #expect(
                    result?.text == text && result?.escapes == false && result?.next == text.utf8.count + 2,
                    "\(length) × \(filler)")
            }
            for position in 0..<length {
                var characters = Array(repeating: Character("b"), count: length)
                characters[position] = " "
                let text = String(characters)
                #expect(scan("\"\(text)\"")?.text == text)
            }
        }
    }

    @Test func escapesAreFollowedAndMarked() {
        #expect(scan(#""a\"b""#)?.text == #"a\"b"# && scan(#""a\"b""#)?.escapes == true)
        #expect(scan(#""\\""#)?.text == #"\\"#)
        #expect(scan(#""\u00e9 and \/""#)?.escapes == true)
        #expect(scan(String(repeating: "x", count: 20).map { _ in "\\n" }.joined().wrappedInQuotes)?.escapes == true)
    }

    @Test func invalidStringsAreRejected() {
        #expect(scan("\"unterminated") == nil)
        #expect(scan("\"" + String(repeating: "y", count: 30)) == nil)
        #expect(scan("\"tab\there\"") == nil)  // a raw control character
        #expect(scan("\"" + String(repeating: "z", count: 17) + "\u{1}\"") == nil)
        #expect(scan(#""bad \x escape""#) == nil)
        #expect(scan(#""short \u12""#) == nil)
        #expect(scan("no quote") == nil)
    }
}

extension String {
    fileprivate var wrappedInQuotes: String { "\"" + self + "\"" }
}
