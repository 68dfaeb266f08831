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

    package static func row(_ cells: [String?]) -> String {
        cells.map { CSVField.escaped($0 ?? "") }.joined(separator: ",") + "\r\n"
    }
}
