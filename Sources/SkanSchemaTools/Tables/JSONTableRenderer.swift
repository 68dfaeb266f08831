import SkanCompiler
import SkanCore
import SkanSchema

/// The `skanc table --format json` document. Its shape is stable and documented in docs/TableFormats.md:
/// `format`, `formatVersion`, `schema` (the layout and rules), `fine` (64 rows) and `coarse` (9 rows).
/// Row members are the table's columns; booleans and integers are typed, empty cells are null.
enum JSONTableRenderer {
    static let formatVersion = 1

    static func render(_ table: DecodingTable) -> String {
        let document = JSONValue.object([
            ("format", .string("skanc-decoding-table")),
            ("formatVersion", .integer(formatVersion)),
            ("schema", schemaValue(table.schema)),
            ("fine", .array(table.fineRows.map { rowValue(table.fineColumns, $0) })),
            ("coarse", .array(table.coarseRows.map { rowValue(table.coarseColumns, $0) })),
        ])
        return document.rendered() + "\n"
    }

    static func rowValue(_ columns: [DecodingTable.Column], _ cells: [String?]) -> JSONValue {
        .object(
            zip(columns, cells).map { column, cell in
                guard let cell else { return (column.name, .null) }
                switch column.kind {
                case .integer: return (column.name, Int(cell).map(JSONValue.integer) ?? .string(cell))
                case .boolean: return (column.name, .bool(cell == "true"))
                case .text: return (column.name, .string(cell))
                }
            })
    }

    static func schemaValue(_ schema: Schema) -> JSONValue {
        .object([
            ("name", .string(schema.name)),
            ("version", .integer(schema.version)),
            ("table", .string(schema.tableName)),
            ("fields", .array(schema.fields.map { Self.fieldValue($0, in: schema) })),
            (
                "reserved",
                .array(
                    schema.reservedBits.map {
                        // "code" only for bits that mark a version, so documents of other schemas keep their shape.
                        .object(
                            [("bits", bitsValue($0.bits))] + ($0.code == 0 ? [] : [("code", .integer($0.code))])
                                + [("description", .optional($0.description))])
                    })
            ),
            ("unusedBits", .array(schema.unusedBits.map(JSONValue.integer))),
            (
                "coarse",
                .array(
                    ConversionWindow.allCases.map { window in
                        .object([
                            ("window", .integer(window.number)),
                            (
                                "rules",
                                .array(
                                    schema.coarseRules(window: window).map { rule in
                                        .object([
                                            ("value", .string(rule.head)),
                                            ("condition", .string(rule.text)),
                                        ])
                                    })
                            ),
                        ])
                    })
            ),
            (
                "lock",
                .array(
                    ConversionWindow.allCases.map { window in
                        .object([
                            ("window", .integer(window.number)),
                            ("condition", .optional(schema.lockCondition(window: window).map(schema.text(of:)))),
                        ])
                    })
            ),
        ])
    }

    static func fieldValue(_ field: Field, in schema: Schema) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("name", .string(field.name)), ("column", .string(ColumnNames.snakeCase(field.name))),
        ]
        switch field.kind {
        case .flag: members.append(("kind", .string("flag")))
        case .cases: members.append(("kind", .string("cases")))
        case .buckets(let unit): members += [("kind", .string("buckets")), ("unit", .string(unit.rawValue))]
        }
        members += [("bits", bitsValue(field.bits)), ("description", .optional(field.description))]
        // A field derived from events and time says from what, as the schema writes it.
        if let derivation = schema.derivationText(of: field) { members.append(("derived", .string(derivation))) }
        members.append(
            (
                "cases",
                .array(
                    field.cases.map { fieldCase in
                        var caseMembers: [(String, JSONValue)] = [
                            ("name", .string(fieldCase.name)), ("code", .integer(fieldCase.code)),
                            ("description", .optional(fieldCase.description)),
                        ]
                        if let bucket = fieldCase.bucket {
                            caseMembers.append(
                                (
                                    "range",
                                    .object([
                                        ("lower", .string(bucket.lowerText)), ("upper", .optional(bucket.upperText)),
                                        ("halfOpen", .bool(bucket.isHalfOpen)),
                                    ])
                                ))
                        }
                        return .object(caseMembers)
                    })
            ))
        return .object(members)
    }

    static func bitsValue(_ bits: BitRange) -> JSONValue {
        .object([("lower", .integer(bits.lower)), ("upper", .integer(bits.upper))])
    }
}
