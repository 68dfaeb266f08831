/// RFC 4180 CSV: a header row, CRLF line ends, fields quoted when they hold a comma, quote or line break.
/// The fine table comes first; a blank line separates it from the coarse table and its own header.
public enum CSVRenderer {
    static func render(_ table: DecodingTable) -> String {
        var out = row(table.fineColumns.map(\.name))
        for cells in table.fineRows { out += row(cells) }
        out += "\r\n" + row(table.coarseColumns.map(\.name))
        for cells in table.coarseRows { out += row(cells) }
        return out
    }

    public static func row(_ cells: [String?]) -> String {
        cells.map { field($0 ?? "") }.joined(separator: ",") + "\r\n"
    }

    /// One field, quoted when needed and safe to open in a spreadsheet.
    public static func field(_ text: String) -> String {
        let safe = neutralizingFormula(text)
        guard safe.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }) else { return safe }
        return "\"" + safe.replacingAll("\"", with: "\"\"") + "\""
    }

    /// A cell a spreadsheet would evaluate (starting with `=`, `+`, `@`, a tab or carriage return, or `-`
    /// when it is not a number) gets a leading `'`, which spreadsheets show as text.
    public static func neutralizingFormula(_ text: String) -> String {
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
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        result.reserveCapacity(count)
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
