import SkanCompiler
import SkanCore
import SkanSchema

/// A self-contained page for review: the bit layout as a diagram (which bits belong to which field, bit 5
/// on the left as in the binary number), the fields and their cases, and both tables.
package enum HTMLRenderer {
    static let palette = ["#cfe8ff", "#ffe3c2", "#d8f5d0", "#f3d6f5", "#fff4b8", "#d5f0ef"]

    static func render(_ table: DecodingTable) -> String {
        let schema = table.schema
        let title = "\(HTMLText.escaped(schema.name)) version \(schema.version)"
        var out = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>\(title): conversion values</title>
            <style>
            body { font: 14px/1.4 -apple-system, system-ui, sans-serif; margin: 2em; color: #1d1d1f; }
            table { border-collapse: collapse; margin: 1em 0; }
            th, td { border: 1px solid #c7c7cc; padding: 4px 8px; text-align: left; }
            th { background: #f2f2f7; }
            table.bits td { width: 7em; height: 3.2em; text-align: center; vertical-align: middle; }
            table.bits td.free { background: repeating-linear-gradient(45deg, #fff, #fff 6px, #eee 6px, #eee 12px); }
            tr.invalid td { color: #8e8e93; }
            .scroll { max-width: 100%; overflow-x: auto; }
            .scroll table { margin: 0; }
            q { color: #3a3a3c; }
            </style>
            </head>
            <body>
            <h1>\(title)</h1>
            <h2>Bit layout</h2>

            """
        out += bitDiagram(schema)
        out += "<h2>Fields</h2>\n<ul>\n"
        for field in schema.fields {
            let cases = field.cases.map {
                "\($0.code) <b>\(HTMLText.escaped($0.name))</b>"
                    + ($0.description.map { " <q>\(HTMLText.escaped($0))</q>" } ?? "")
                    + ($0.bucket.map { " (\(HTMLText.escaped($0.description)))" } ?? "")
            }
            out +=
                "<li><b>\(HTMLText.escaped(field.name))</b> (\(field.bits.description))\(field.description.map { ": " + HTMLText.escaped($0) } ?? ""): \(cases.joined(separator: ", "))</li>\n"
        }
        out += "</ul>\n<h2>Fine values</h2>\n"
        out += htmlTable(table.fineColumns.map(\.name), table.fineRows) { row in
            row[2] == "false" ? " class=\"invalid\"" : ""
        }
        out += "<h2>Coarse values</h2>\n"
        out += htmlTable(table.coarseColumns.map(\.name), table.coarseRows) { _ in "" }
        out += "</body>\n</html>\n"
        return out
    }

    /// One cell per declaration, spanning its bits; bits that nothing owns are hatched.
    static func bitDiagram(_ schema: Schema) -> String {
        var owners: [Int: (name: String, color: String, width: Int, reserved: Bool)] = [:]
        for (index, field) in schema.fields.enumerated() {
            owners[field.bits.upper] = (field.name, palette[index % palette.count], field.bits.width, false)
        }
        for reserved in schema.reservedBits {
            let name = reserved.code == 0 ? "reserved" : "reserved = \(reserved.code)"
            owners[reserved.bits.upper] = (name, "#e5e5ea", reserved.bits.width, true)
        }
        let header = "<tr>" + (0...5).reversed().map { "<th>bit \($0) (\(1 << $0))</th>" }.joined()
        var cells = "<tr>"
        var bit = 5
        while bit >= 0 {
            if let owner = owners[bit] {
                let label =
                    owner.reserved ? "<i>\(HTMLText.escaped(owner.name))</i>" : "<b>\(HTMLText.escaped(owner.name))</b>"
                cells += "<td colspan=\"\(owner.width)\" style=\"background: \(owner.color)\">\(label)</td>"
                bit -= owner.width
            } else {
                cells += "<td class=\"free\">unused</td>"
                bit -= 1
            }
        }
        return "<table class=\"bits\">\n\(header)</tr>\n\(cells)</tr>\n</table>\n"
    }

    static func htmlTable(_ header: [String], _ rows: [[String?]], rowAttributes: ([String?]) -> String) -> String {
        // In a box of its own that scrolls sideways, so a wide table never widens the page.
        var out =
            "<div class=\"scroll\">\n<table>\n<tr>" + header.map { "<th>\(HTMLText.escaped($0))</th>" }.joined()
            + "</tr>\n"
        for row in rows {
            out +=
                "<tr\(rowAttributes(row))>" + row.map { "<td>\(HTMLText.escaped($0 ?? ""))</td>" }.joined() + "</tr>\n"
        }
        return out + "</table>\n</div>\n"
    }

}
