import SkanCompiler
import SkanCore
import SkanSchema

/// `CREATE TABLE` and `INSERT` statements for the fine table (`shop_v3`, keyed by `fine_value`, ready to join
/// postbacks on `fine_value = conversion-value`) and the coarse table (`shop_v3_coarse`).
enum SQLRenderer {
    static func render(_ table: DecodingTable, dialect: SQLDialect, tables: TableSelection) -> String {
        let schema = table.schema
        var out =
            "-- Decoding tables of schema \(schema.name) version \(schema.version), written by skanc (\(dialect.rawValue)).\n"
        out += "-- Join postbacks on \(schema.tableName).fine_value = conversion-value.\n\n"
        var parts: [String] = []
        if tables.includesFine {
            parts.append(
                statements(
                    name: schema.tableName, columns: table.fineColumns, rows: table.fineRows, key: "fine_value",
                    dialect: dialect))
        }
        if tables.includesCoarse {
            parts.append(
                statements(
                    name: schema.tableName + "_coarse", columns: table.coarseColumns, rows: table.coarseRows, key: nil,
                    dialect: dialect))
        }
        return out + parts.joined(separator: "\n")
    }

    static func statements(
        name: String, columns: [DecodingTable.Column], rows: [[String?]], key: String?, dialect: SQLDialect
    ) -> String {
        let table = dialect.identifier(name)
        var definitions = columns.map { column in
            "  \(dialect.identifier(column.name)) \(dialect.type(column.kind))"
                + (column.name == key ? " NOT NULL" : "")
        }
        if let key {
            definitions.append(
                "  PRIMARY KEY (\(dialect.identifier(key)))" + (dialect == .bigquery ? " NOT ENFORCED" : ""))
        }
        var out = "DROP TABLE IF EXISTS \(table);\n"
        out += "CREATE TABLE \(table) (\n" + definitions.joined(separator: ",\n") + "\n);\n"
        out +=
            "INSERT INTO \(table) (" + columns.map { dialect.identifier($0.name) }.joined(separator: ", ")
            + ") VALUES\n"
        out +=
            rows.map { row in
                "  ("
                    + zip(columns, row).map { column, cell in literal(cell, column.kind, dialect) }.joined(
                        separator: ", ") + ")"
            }.joined(separator: ",\n") + ";\n"
        return out
    }

    static func literal(_ cell: String?, _ kind: DecodingTable.Column.Kind, _ dialect: SQLDialect) -> String {
        guard let cell else { return "NULL" }
        switch kind {
        case .integer: return Int(cell).map(String.init) ?? dialect.string(cell)
        case .boolean: return dialect.boolean(cell == "true")
        case .text: return dialect.string(cell)
        }
    }
}
