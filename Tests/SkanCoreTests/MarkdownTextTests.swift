import SkanCore
import Testing

@testable import SkanCore

/// One Markdown escaper for tables, diffs and reports: the rules GFM splits and marks up by.
@Suite struct MarkdownTextTests {
    /// GFM splits a row on every unescaped `|`: a `|` that a combining mark follows is one `Character` with it,
    /// which the report's and the diff's escapers (on characters) let through, making a row of one cell more.
    @Test func aPipeFollowedByACombiningMarkIsEscaped() {
        let cell = MarkdownText.escaped("a|\u{301}b")
        #expect(cell == "a\\|\u{301}b")
        #expect(Self.unescapedPipes(in: "| " + cell + " |") == 2)
    }

    @Test func markupLineBreaksAndHTMLCannotEscapeACell() {
        #expect(MarkdownText.escaped("*a* _b_ [c](d) #e `f` \\") == "\\*a\\* \\_b\\_ \\[c\\](d) \\#e \\`f\\` \\\\")
        // Inside a word, `_` opens no emphasis and stays readable.
        #expect(MarkdownText.escaped("payment_tier _x") == "payment_tier \\_x")
        #expect(MarkdownText.escaped("<script>&") == "&lt;script&gt;&amp;")
        #expect(MarkdownText.escaped("a\r\nb\nc\u{2028}d") == "a<br>b<br>c<br>d")
    }

    @Test func codeSpansStayCodeSpansInItems() {
        #expect(
            MarkdownText.escaped("`payment_tier` renamed *now*", keepingCodeSpans: true)
                == "`payment_tier` renamed \\*now\\*")
        #expect(MarkdownText.escaped("`a`|b", keepingCodeSpans: true) == "`a`\\|b")
    }

    /// The pipes GFM splits a row at: those not preceded by a backslash, counted on scalars.
    static func unescapedPipes(in row: String) -> Int {
        var count = 0
        var escaped = false
        for scalar in row.unicodeScalars {
            if scalar == "|", !escaped { count += 1 }
            escaped = scalar == "\\" && !escaped
        }
        return count
    }
}
