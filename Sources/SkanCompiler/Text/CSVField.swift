/// One RFC 4180 CSV field, as tables and postback rows write it.
package enum CSVField {
    /// `text` quoted when it holds a comma, quote or line break, and safe to open in a spreadsheet.
    package static func escaped(_ text: String) -> String {
        let safe = neutralizingFormula(text)
        guard safe.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }) else { return safe }
        return "\"" + safe.replacingAll("\"", with: "\"\"") + "\""
    }

    /// A cell a spreadsheet would evaluate (starting with `=`, `+`, `@`, a tab or carriage return, or `-`
    /// when it is not a number) gets a leading `'`, which spreadsheets show as text.
    package static func neutralizingFormula(_ text: String) -> String {
        guard let first = text.first else { return text }
        switch first {
        case "=", "+", "@", "\t", "\r": return "'" + text
        case "-": return Double(text) == nil ? "'" + text : text
        default: return text
        }
    }
}

extension String {
    /// Plain replacement without Foundation.
    package func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        result.reserveCapacity(count)
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
