/// One RFC 4180 CSV field, as tables and postback rows write it. Decided on Unicode scalars, not on Swift's
/// `Character`s: a quote or comma followed by a combining mark is one grapheme cluster, and "\r\n" is one too,
/// yet each is still the byte a CSV reader splits on.
package enum CSVField {
    /// `text` quoted when it holds a comma, quote, carriage return or line feed, and safe to open in a
    /// spreadsheet; any other control character but a tab is escaped (`ControlCharacters`).
    package static func escaped(_ text: String) -> String {
        let safe = neutralizingFormula(ControlCharacters.escaped(text, keeping: ["\t", "\r", "\n"]))
        guard safe.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 13 || $0 == 10 })
        else { return safe }
        return "\"" + safe.replacingAll("\"", with: "\"\"") + "\""
    }

    /// A cell a spreadsheet would evaluate (its first scalar `=`, `+`, `@`, a tab or carriage return, or `-`
    /// when it is not a number) gets a leading `'`, which spreadsheets show as text.
    package static func neutralizingFormula(_ text: String) -> String {
        guard let first = text.unicodeScalars.first else { return text }
        switch first {
        case "=", "+", "@", "\t", "\r": return "'" + text
        case "-": return Double(text) == nil ? "'" + text : text
        default: return text
        }
    }
}

extension String {
    /// Every `target` scalar replaced, without Foundation. On scalars, so that a target followed by a
    /// combining mark (one `Character`) is still replaced: quoting must see every quote.
    package func replacingAll(_ target: Unicode.Scalar, with replacement: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if scalar == target { result.append(contentsOf: replacement.unicodeScalars) } else { result.append(scalar) }
        }
        return String(result)
    }
}
