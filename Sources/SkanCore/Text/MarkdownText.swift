/// Text from an input (a description, a campaign, a status) made safe in GitHub-flavoured Markdown: in a table
/// cell it cannot end the cell or the row, and anywhere it cannot turn into emphasis, a link, a heading, a code
/// span or HTML. One escaper for every Markdown output (tables, diffs, reports).
package enum MarkdownText {
    /// `text` escaped; with `keepingCodeSpans` (list items, not table cells), the code spans the caller wrote
    /// around names stay code spans, copied as they are (a backslash inside one would show). On Unicode
    /// scalars, not characters: GFM splits a row on every `|`, even one a combining mark follows, which a
    /// `Character` would hide.
    package static func escaped(_ text: String, keepingCodeSpans: Bool = false) -> String {
        var result = ""
        var previous: Unicode.Scalar? = nil
        var inCodeSpan = false
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            defer { previous = scalar }
            // `_` between two letters or digits (`payment_tier`) opens no emphasis in GFM: left as it is.
            if scalar == "_", let before = previous, before.properties.isAlphabetic || ("0"..."9").contains(before),
                index + 1 < scalars.count,
                scalars[index + 1].properties.isAlphabetic || ("0"..."9").contains(scalars[index + 1])
            {
                result.unicodeScalars.append(scalar)
                continue
            }
            if scalar == "\n", previous == "\r" { continue }  // CR LF is one line break
            if keepingCodeSpans, scalar == "`" {
                inCodeSpan.toggle()
                result.unicodeScalars.append(scalar)
                continue
            }
            if inCodeSpan, scalar != "\n", scalar != "\r", !ControlCharacters.isControl(scalar) || scalar == "\t" {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\\", "|", "`", "*", "_", "[", "]", "#": result += "\\" + String(scalar)
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "&": result += "&amp;"
            case "\r", "\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}": result += "<br>"
            case _ where scalar != "\t" && ControlCharacters.isControl(scalar):
                result += ControlCharacters.escape(scalar)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
