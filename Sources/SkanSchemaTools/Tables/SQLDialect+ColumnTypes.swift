import SkanCompiler
import SkanCore
import SkanSchema

/// The column types of the lookup tables, per engine.
extension SQLDialect {
    func type(_ kind: DecodingTable.Column.Kind) -> String {
        switch (self, kind) {
        case (.bigquery, .integer): "INT64"
        case (_, .integer): "INTEGER"
        case (.bigquery, .text): "STRING"
        case (.duckdb, .text), (.snowflake, .text): "VARCHAR"
        case (_, .text): "TEXT"
        case (.sqlite, .boolean): "INTEGER"
        case (.bigquery, .boolean): "BOOL"
        case (_, .boolean): "BOOLEAN"
        }
    }
}
