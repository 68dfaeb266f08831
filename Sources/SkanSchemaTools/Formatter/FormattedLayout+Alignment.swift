extension FormattedLayout {
    /// Which lines align with each other: the cases of one field, the rules of one coarse block, flags
    /// written together. Nil: the line stands alone.
    private static func alignmentGroup(_ kind: LineKind) -> String? {
        switch kind {
        case .caseEntry(let block): "case \(block)"
        case .rule(let block): "rule \(block)"
        case .declaration("flag"): "flag"
        default: nil
        }
    }

    /// The columns a group pads: the aligned name (a case's or flag's name, a rule's coarse value) and a
    /// case's code. What follows them (descriptions, ranges, conditions) then starts in one column.
    private struct Widths {
        var name = 0
        var code = 0
    }

    /// The text of each row: code lines indented, spaced and aligned within their group (a run of lines of
    /// one group, across comment lines but not blank ones).
    static func align(_ rows: [Row]) -> [String] {
        var out: [String] = []
        var index = 0
        while index < rows.count {
            guard case .code(let first) = rows[index], let group = alignmentGroup(first.kind) else {
                switch rows[index] {
                case .text(let text): out.append(text)
                case .code(let line): out.append(render(line, Widths()))
                }
                index += 1
                continue
            }
            var end = index
            var widths = Widths()
            while end < rows.count {
                if case .code(let line) = rows[end] {
                    guard alignmentGroup(line.kind) == group else { break }
                    let (name, code) = alignedCells(line)
                    widths.name = max(widths.name, name?.count ?? 0)
                    widths.code = max(widths.code, code?.count ?? 0)
                } else if case .text(let text) = rows[end], text.isEmpty {
                    break
                }
                end += 1
            }
            for row in rows[index..<end] {
                switch row {
                case .code(let line): out.append(render(line, widths))
                case .text(let text): out.append(text)
                }
            }
            index = end
        }
        return out
    }

    /// The name cell and the code cell a line aligns, when it has them.
    private static func alignedCells(_ line: Line) -> (name: String?, code: String?) {
        let cells = line.cells
        switch line.kind {
        case .caseEntry: return (cells.first, cells.count > 3 && cells[1] == "=" ? cells[2] : nil)
        case .rule: return (cells.first, nil)
        case .declaration: return (cells.count > 2 ? cells[1] : nil, nil)
        default: return (nil, nil)
        }
    }

    private static func render(_ line: Line, _ widths: Widths) -> String {
        let pad = { (text: String, width: Int) in text + String(repeating: " ", count: max(width - text.count, 0)) }
        var cells = line.cells
        var text = String(repeating: "  ", count: max(line.depth, 0))
        switch (line.kind, alignedCells(line)) {
        case (.caseEntry, (let name?, let code?)):
            // name = code …: the code padded too, so descriptions and ranges line up.
            text += pad(name, widths.name) + " = " + pad(code, widths.code) + " " + spaced(Array(cells.dropFirst(3)))
        case (.caseEntry, (let name?, nil)), (.rule, (let name?, nil)):
            cells.removeFirst()
            text += pad(name, widths.name) + (cells.isEmpty ? "" : " " + spaced(cells))
        case (.declaration, (let name?, nil)):
            text += cells[0] + " " + pad(name, widths.name) + " " + spaced(Array(cells.dropFirst(2)))
        default:
            text += spaced(cells)
        }
        if let trailing = line.trailing { text += " " + trailing }
        // Padding before nothing (a short name alone on its line) leaves no trailing spaces.
        while text.last == " " { text.removeLast() }
        return text
    }

    /// Cells joined by one space, except around `...` and `..<` before a number, inside parentheses and around
    /// the `.` of `purchase.count`.
    static func spaced(_ cells: [String]) -> String {
        var text = ""
        for (index, cell) in cells.enumerated() {
            if index > 0 {
                let previous = cells[index - 1]
                let isRange = { (cell: String) in cell == "..." || cell == "..<" }
                let tight =
                    previous == "(" || cell == ")" || isRange(cell) || cell == "." || previous == "."
                    || (isRange(previous) && cell.first.map { $0.isNumber } == true)
                if !tight { text += " " }
            }
            text += cell
        }
        return text
    }
}
