import SkanCommandLine
import SkanPostbacks
import SkanReports
import SkanWarehouse

/// `skanc sql SCHEMA --dialect D`: a view that decodes raw postback lines in a SQL engine as
/// `skanc postbacks --no-verify` does.
enum SQLCommand {
    static let dialect = ChoiceOption<WarehouseDialect>(
        "--dialect", placeholder: "DIALECT",
        help: "duckdb, postgres (also writes three helper functions), sqlite or spark.")
    static let table = CommandOption.text(
        "--table", placeholder: "NAME", defaultValue: "postback_lines",
        help: "The table of raw lines (schema.table allowed).")
    static let lineColumn = CommandOption.text(
        "--line-column", placeholder: "NAME", defaultValue: "line",
        help: "Its column of line numbers; the lowest wins among duplicates.")
    static let textColumn = CommandOption.text(
        "--text-column", placeholder: "NAME", defaultValue: "text", help: "Its column of JSON text.")
    static let receivedColumn = CommandOption.text(
        "--received-column", placeholder: "NAME",
        help: "Its column of receipt times in Unix seconds (skanc serve's .times files): adds received_at.")
    static let view = CommandOption.text(
        "--view", placeholder: "NAME", defaultValue: "decoded_postbacks",
        help: "The view to create; with --report, the one to read.")
    static let query = CommandOption.flag("--query", help: "Write the query alone, without the view.")
    static let report = CommandOption.flag("--report", help: "Write the report's views (above).")
    static let costTable = CommandOption.text(
        "--cost-table", placeholder: "NAME",
        help: "With --report, also the cost views over a table of spend (network, campaign, day, spend, currency).")

    static let command = Command(
        name: "sql",
        summary: "Write SQL that decodes raw postbacks in DuckDB, PostgreSQL, SQLite or Spark as 'postbacks' does.",
        operands: "SCHEMA[,SCHEMA...]",
        options: [
            dialect, table, lineColumn, textColumn, receivedColumn, view, query, report, costTable, GroupingOption.by,
            GroupingOption.zeroIsNull, SchemaInput.schemas,
        ],
        discussion: """
            Writes a view (replaced when the file runs again) that turns a table of raw postback lines (a line
            number and the JSON text of one postback per row) into the rows of 'skanc postbacks --no-verify': the
            same columns in the same order, the same status codes with the same precedence, the schema's fields
            and the coarse meanings, the duplicate check as a window over the transaction or postback identifier.
            Signatures are not checked: verify them with 'skanc postbacks' where the postbacks arrive. Where an
            engine's JSON functions cannot make a distinction skanc makes, docs/Warehouse.md says so. --dialect is
            required.

            With --report, writes instead views over the decoded view (run the decoding SQL first) that compute the
            figures of 'skanc report --format json' (--no-verify), with the same --by and --zero-is-null:
            report_windows, report_tiers, report_cases, report_coarse, report_revenue_ranges, report_revenue,
            report_installs_coarse, report_installs (hard bounds over all installs), report_reengagements_coarse,
            report_reengagements (the same over re-engagements), report_not_ok and report_wide (one row per
            group, the columns of 'skanc report --format csv --wide' but the estimates; docs/Reports.md lists
            every view's columns); with --cost-table NAME, report_cost and report_return_on_spend over a table
            of spend with the columns of 'skanc report --cost'. --by,
            --zero-is-null and --cost-table go with --report only; --query goes without --report and --view.
            """,
        exitStatus: "0 written, 1 a schema error or a file that cannot be read, 64 bad usage.",
        run: run
    )

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(UsageError) -> ExitStatus {
        let path = try SchemaInput.operand(arguments, "to decode with")
        guard arguments.positionals.count == (arguments.has(SchemaInput.schemas) ? 0 : 1) else {
            throw UsageError(message: "sql takes one schema argument (versions: A.skan,B.skan)")
        }
        guard let dialect = arguments[dialect] else {
            throw UsageError(message: "name the engine with --dialect duckdb|postgres|sqlite|spark")
        }
        let report = arguments.has(report)
        if !report,
            arguments.has(GroupingOption.by) || arguments.has(GroupingOption.zeroIsNull) || arguments.has(costTable)
        {
            throw UsageError(message: "--by, --zero-is-null and --cost-table go with --report")
        }
        if report, arguments.has(query) {
            throw UsageError(message: "--report writes views; drop --query")
        }
        let groupings = try GroupingOption.parse(arguments)
        if arguments.has(query), arguments.has(view) {
            throw UsageError(message: "--query writes no view; drop --view")
        }
        for (option, qualified) in [
            (table, true), (lineColumn, false), (textColumn, false), (receivedColumn, false), (view, true),
            (costTable, true),
        ] {
            if arguments.has(option), let value = arguments[option],
                let problem = SQLName.problem(with: value, qualified: qualified)
            {
                throw UsageError(message: "the name given to \(option.name) \(problem)")
            }
        }
        var names = DecodeSQL.Names()
        if arguments.has(table), let name = arguments[table] { names.table = name }
        if arguments.has(lineColumn), let name = arguments[lineColumn] { names.lineColumn = name }
        if arguments.has(textColumn), let name = arguments[textColumn] { names.textColumn = name }
        names.receivedColumn = arguments[receivedColumn]
        if arguments.has(view), let name = arguments[view] { names.view = name }
        if arguments.has(query) { names.view = nil }
        guard report else {
            guard let catalog = try SchemaInput.compileCatalog(path, context) else { return .failure }
            context.standard(DecodeSQL(catalog: catalog, dialect: dialect, names: names).render(), terminator: "")
            return .success
        }
        // The report's views read one app's decoded view: its fields and coarse meanings are the columns.
        guard let versions = try SchemaInput.compileVersions(path, context) else { return .failure }
        try GroupingOption.check(groupings, versions: versions)
        if arguments[costTable] != nil, let problem = CostTable.problem(with: groupings) {
            throw UsageError(message: "--cost-table: " + problem)
        }
        let sql = ReportSQL(
            versions: versions, dialect: dialect, groupings: groupings,
            zeroIsNull: arguments.has(GroupingOption.zeroIsNull), decodedView: names.view ?? "decoded_postbacks",
            costTable: arguments[costTable])
        context.standard(sql.render(), terminator: "")
        return .success
    }
}
