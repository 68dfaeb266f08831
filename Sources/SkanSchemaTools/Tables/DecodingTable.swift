import SkanCompiler
import SkanCore
public import SkanSchema

/// Every fine value of a schema and every coarse value of each window, with what they mean: the data that
/// every table format renders. Cells are text, as they appear in every format; empty where not applicable.
public struct DecodingTable: Sendable {
    /// A column of a table: its name and what its cells hold.
    public typealias Column = TableColumn

    /// The schema the table decodes.
    public let schema: Schema
    /// `fine_value`, `bits`, `valid`, `reason`, one per field, `coarse_window_1...3`, `lock_window_1...3`.
    public let fineColumns: [Column]
    /// 64 rows, fine value 0 first. A nil cell is empty (a field of an invalid value, say).
    public let fineRows: [[String?]]
    /// `window`, `coarse_value`, `rule`, `states`.
    public let coarseColumns: [Column]
    /// For each window 1...3 and each coarse value low, medium, high.
    public let coarseRows: [[String?]]

    static let fineColumnsBeforeFields = TableColumn.fineBeforeFields
    static let schemaVersionColumn = TableColumn.schemaVersion
    static let fineColumnsAfterFields = TableColumn.fineAfterFields
    static let coarseTableColumns = TableColumn.coarseTable

    /// Every column name of `skanc table` that is not a field's, in every format: a field may not take one.
    public static var columnNames: [String] { TableColumn.reservedNames }

    /// The fine and coarse tables of `schema`, computed from its reference semantics.
    public init(schema: Schema) {
        self.schema = schema
        self.fineColumns =
            Self.fineColumnsBeforeFields
            + schema.fields.map { Column(name: ColumnNames.snakeCase($0.name), kind: $0.isFlag ? .boolean : .text) }
            + Self.fineColumnsAfterFields
        self.fineRows = Schema.fineValueRange.map { fine in
            var row: [String?] = [String(fine), DecodingTable.bits(of: fine)]
            switch schema.decode(fineValue: fine) {
            case .failure(let error):
                row += ["false", error.description]
                row += Array(repeating: nil, count: schema.fields.count + 6)
            case .success(let state):
                row += ["true", nil]
                row += schema.cases(of: state).map { $0?.name }
                row += ConversionWindow.allCases.map { schema.coarseHead(of: state, window: $0) }
                row += ConversionWindow.allCases.map { schema.lockDecision(for: state, window: $0).map(String.init) }
            }
            return row
        }
        self.coarseColumns = Self.coarseTableColumns
        let states = schema.validStates
        self.coarseRows = ConversionWindow.allCases.flatMap { window in
            // A `nothing` row only in a window that has such a rule, so other schemas' tables keep their shape.
            let silent = schema.coarseRules(window: window).contains { $0.value == nil }
            let heads = CoarseValue.allCases.map(\.rawValue) + (silent ? [CoarseRule.nothing] : [])
            return heads.map { head in
                let count = states.filter { schema.coarseHead(of: $0, window: window) == head }.count
                return [String(window.number), head, schema.ruleText(head: head, window: window), String(count)]
            }
        }
    }

    /// The six bits, most significant first: 11 → `001011`.
    public static func bits(of fine: Int) -> String {
        let binary = String(fine, radix: 2)
        return String(repeating: "0", count: max(0, 6 - binary.count)) + binary
    }
}

extension Schema {
    /// Name of the table the SQL output creates: `<schema>_v<version>` in snake_case (`shop_v3`).
    public var tableName: String { ColumnNames.snakeCase(name) + "_v\(version)" }
}

extension DecodingTable {
    /// The tables of versions live together: each fine value decoded with the version it belongs to, a
    /// `schema_version` column after `valid` and the fields of every version (the newest's first); a value
    /// valid in several versions is not valid (`reason`: which ones). The coarse table has a row per version,
    /// window and value, with `schema_version` first. Titles and layouts show the newest version.
    public init(versions: LiveVersions) {
        guard versions.schemas.count > 1 else {
            self.init(schema: versions.schemas[0])
            return
        }
        let newest = versions.schemas.last!
        let fieldColumns = versions.fieldColumns
        let fieldNames = fieldColumns.map(\.name)
        let fineColumns =
            Self.fineColumnsBeforeFields + [Self.schemaVersionColumn]
            + fieldColumns.map { Column(name: $0.name, kind: $0.isFlag ? .boolean : .text) }
            + Self.fineColumnsAfterFields
        let fineRows = Schema.fineValueRange.map { fine -> [String?] in
            var row: [String?] = [String(fine), DecodingTable.bits(of: fine)]
            guard case .version(let schema) = versions.owner(of: fine),
                case .success(let state) = schema.decode(fineValue: fine)
            else {
                let reason: String
                if case .ambiguous(let list) = versions.owner(of: fine) {
                    reason = "ambiguous-version: valid in versions " + list.map(String.init).joined(separator: ", ")
                } else {
                    reason =
                        "valid in no version; in \(newest.version): \(newest.decode(fineValue: fine).failureDescription)"
                }
                return row + ["false", reason] + Array(repeating: nil, count: fieldNames.count + 7)
            }
            row += ["true", nil, String(schema.version)]
            let cases = schema.cases(of: state)
            row += fieldNames.map { column in
                schema.fields.firstIndex { ColumnNames.snakeCase($0.name) == column }.map { cases[$0]?.name } ?? nil
            }
            row += ConversionWindow.allCases.map { schema.coarseHead(of: state, window: $0) }
            row += ConversionWindow.allCases.map { schema.lockDecision(for: state, window: $0).map(String.init) }
            return row
        }
        let coarseColumns = [Self.schemaVersionColumn] + Self.coarseTableColumns
        let coarseRows = versions.schemas.flatMap { (schema: Schema) -> [[String?]] in
            DecodingTable(schema: schema).coarseRows.map { [String(schema.version)] + $0 }
        }
        self.init(
            schema: newest, fineColumns: fineColumns, fineRows: fineRows, coarseColumns: coarseColumns,
            coarseRows: coarseRows)
    }

    private init(
        schema: Schema, fineColumns: [Column], fineRows: [[String?]], coarseColumns: [Column], coarseRows: [[String?]]
    ) {
        self.schema = schema
        self.fineColumns = fineColumns
        self.fineRows = fineRows
        self.coarseColumns = coarseColumns
        self.coarseRows = coarseRows
    }
}

extension Result where Success == SchemaState, Failure == FineValueError {
    /// Why the value is not valid, or empty when it is.
    fileprivate var failureDescription: String {
        if case .failure(let error) = self { return error.description }
        return ""
    }
}
