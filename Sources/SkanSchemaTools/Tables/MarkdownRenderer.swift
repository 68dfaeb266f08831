import SkanCompiler
import SkanCore
import SkanSchema

/// GitHub-flavoured Markdown for docs and pull requests: the layout, then both tables.
enum MarkdownRenderer {
    static func render(_ table: DecodingTable, tables: TableSelection) -> String {
        let schema = table.schema
        var out = "# \(escape(schema.name)) version \(schema.version)\n\n## Layout\n\n"
        out += markdownTable(
            ["bits", "name", "kind", "cases", "description"],
            schema.fields.map { field in
                [
                    field.bits.description, field.name, kindName(field),
                    field.cases.map {
                        "\($0.code) \($0.name)" + ($0.description.map { " “\($0)”" } ?? "")
                            + ($0.bucket.map { " (\($0))" } ?? "")
                    }.joined(separator: ", "),
                    field.description ?? "",
                ]
            }
                + schema.reservedBits.map {
                    [
                        $0.bits.description, $0.code == 0 ? "reserved" : "reserved = \($0.code)", "", "",
                        $0.description ?? "",
                    ]
                })
        if tables.includesFine {
            out += "\n## Fine values\n\n"
            out += markdownTable(table.fineColumns.map(\.name), table.fineRows.map { $0.map { $0 ?? "" } })
        }
        if tables.includesCoarse {
            out += "\n## Coarse values\n\n"
            out += markdownTable(table.coarseColumns.map(\.name), table.coarseRows.map { $0.map { $0 ?? "" } })
        }
        return out
    }

    static func kindName(_ field: Field) -> String {
        switch field.kind {
        case .flag: "flag"
        case .cases: "field"
        case .buckets(let unit): "buckets (\(unit.rawValue))"
        }
    }

    static func markdownTable(_ header: [String], _ rows: [[String]]) -> String {
        var out = "| " + header.map(escape).joined(separator: " | ") + " |\n"
        out += "|" + header.map { _ in " --- |" }.joined() + "\n"
        for row in rows { out += "| " + row.map(escape).joined(separator: " | ") + " |\n" }
        return out
    }

    static func escape(_ text: String) -> String {
        MarkdownText.escaped(text)
    }
}
