import SkanCompiler
import SkanCore
import SkanSchema

/// RFC 4180 CSV: a header row, CRLF line ends, fields quoted when they hold a comma, quote or line break.
/// One table per file, the fine or the coarse one, so that every loader reads it as one table.
enum CSVRenderer {
    static func render(_ table: DecodingTable, table selection: TableSelection) -> String {
        let (columns, rows) =
            selection == .coarse ? (table.coarseColumns, table.coarseRows) : (table.fineColumns, table.fineRows)
        var out = row(columns.map(\.name))
        for cells in rows { out += row(cells) }
        return out
    }

    package static func row(_ cells: [String?]) -> String {
        cells.map { CSVField.escaped($0 ?? "") }.joined(separator: ",") + "\r\n"
    }
}
