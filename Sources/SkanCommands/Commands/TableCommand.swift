import SkanCommandLine
import SkanCore
import SkanSchemaTools

/// `skanc table SCHEMA [--format F] [--dialect D]`: every fine and coarse value and what it means.
enum TableCommand {
    static let format = ChoiceOption<TableFormat>(
        "--format", placeholder: "FORMAT", default: .text,
        help: "text (aligned for a terminal), csv (RFC 4180, one table), json (documented in docs/TableFormats.md), "
            + "markdown, html (a page with a bit-layout diagram) or sql (CREATE TABLE and INSERT for "
            + "<schema>_v<version> and <schema>_v<version>_coarse).")
    static let table = ChoiceOption<TableSelection>(
        "--table", placeholder: "TABLE",
        help: "fine, coarse or both. csv writes one table, the fine one unless --table coarse; text, markdown and "
            + "sql write both unless told; json and html always hold both.")
    static let dialect = ChoiceOption<SQLDialect>(
        "--dialect", placeholder: "DIALECT", default: .sqlite,
        help: "For sql: sqlite, duckdb, postgres, bigquery or snowflake.")

    static let command = Command(
        name: "table",
        summary: "Print every fine and coarse value and its meaning (text, CSV, JSON, Markdown, HTML, SQL).",
        operands: "SCHEMA[,SCHEMA...]",
        options: [format, table, dialect],
        discussion: """
            Prints the decoding tables of a schema (a path, or - for standard input). The fine table has one row per
            fine value 0...63 (bits, valid, reason, one column per field, coarse value and lock per window); the
            coarse table gives, per window and coarse value, the rule in words and how many states map to it.

            Several schemas, separated by commas, are versions live together: each fine value is decoded with the
            version it belongs to (a schema_version column, the fields of every version; a value valid in several
            is not valid, reason ambiguous-version), and the coarse table has a row per version.
            """,
        exitStatus: "0 printed, 1 a schema error or a file that cannot be read, 64 bad usage.",
        run: run
    )

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(UsageError) -> ExitStatus {
        let path = try SchemaInput.single(arguments, "to tabulate")
        let format = arguments.value(format)
        if arguments.has(dialect), format != .sql {
            throw UsageError(message: "--dialect goes with --format sql")
        }
        let dialect = arguments.value(dialect)
        let tables = arguments[table] ?? format.defaultTables
        guard format.tableSelections.contains(tables) else {
            throw UsageError(
                message: format == .csv
                    ? "a CSV file holds one table; write the fine and the coarse table with --table fine and --table coarse"
                    : "\(format.rawValue) always holds both tables; drop --table")
        }
        // Several schemas, separated by commas, are versions live together: one table across them.
        guard let versions = try SchemaInput.compileVersions(path, context) else { return .failure }
        let table = DecodingTable(versions: versions)
        context.standard(table.render(format, dialect: dialect, tables: tables), terminator: "")
        return .success
    }
}
