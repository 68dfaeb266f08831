import SkanCompiler
import SkanCore
import SkanSchema

/// Aligned columns for a terminal: the fine table, then the coarse table. The long `reason` column comes
/// last here, so the short ones stay readable.
enum TextTableRenderer {
    static func render(_ table: DecodingTable, tables: TableSelection) -> String {
        let schema = table.schema
        var sections: [String] = []
        if tables.includesFine {
            let reason = table.fineColumns.firstIndex { $0.name == "reason" }!
            let order = table.fineColumns.indices.filter { $0 != reason } + [reason]
            sections.append(
                "\(schema.name) version \(schema.version): fine values\n\n"
                    + aligned(
                        order.map { table.fineColumns[$0].name }, table.fineRows.map { row in order.map { row[$0] } }))
        }
        if tables.includesCoarse {
            sections.append(
                "\(schema.name) version \(schema.version): coarse values\n\n"
                    + aligned(table.coarseColumns.map(\.name), table.coarseRows))
        }
        return sections.joined(separator: "\n")
    }

    /// Columns padded to their widest cell (counted in characters); no trailing spaces.
    static func aligned(_ header: [String], _ rows: [[String?]]) -> String {
        let cells = [header] + rows.map { $0.map { oneLine($0 ?? "") } }
        var widths = Array(repeating: 0, count: header.count)
        for row in cells {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        return cells.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }.joined(separator: "\n") + "\n"
    }

    /// Line breaks and tabs from schema text would break the alignment; control characters are escaped.
    static func oneLine(_ text: String) -> String {
        TerminalText.visible(text, oneLine: true)
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
