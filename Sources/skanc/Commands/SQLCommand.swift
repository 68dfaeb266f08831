import SkanPostbacks
import SkanSchemaTools
import SkanWarehouse

/// `skanc sql SCHEMA --dialect D`: a view that decodes raw postback lines in a SQL engine as
/// `skanc postbacks --no-verify` does.
enum SQLCommand {
    static let command = Command(
        name: "sql",
        summary: "Write SQL that decodes raw postbacks in DuckDB, PostgreSQL, SQLite or Spark as 'postbacks' does.",
        flags: ["--query", "--report", "--zero-is-null"],
        options: [
            "--dialect": WarehouseDialect.allCases.map(\.rawValue), "--table": [], "--line-column": [],
            "--text-column": [], "--view": [], "--by": [],
        ],
        help: """
            USAGE: skanc sql SCHEMA[,SCHEMA...] --dialect duckdb|postgres|sqlite|spark [--table NAME]
                             [--line-column NAME] [--text-column NAME] [--view NAME | --query]
                   skanc sql SCHEMA[,SCHEMA...] --dialect D --report [--by GROUPING[,...]] [--zero-is-null] [--view NAME]

            Writes a view (replaced when the file runs again) that turns a table of raw postback lines (a line
            number and the JSON text of one postback per row) into the rows of 'skanc postbacks --no-verify': the
            same columns in the same order, the same status codes with the same precedence, the schema's fields
            and the coarse meanings, the duplicate check as a window over the transaction or postback identifier.
            Signatures are not checked: verify them with 'skanc postbacks' where the postbacks arrive. Where an
            engine's JSON functions cannot make a distinction skanc makes, docs/Warehouse.md says so.

            With --report, writes instead views over the decoded view (run the decoding SQL first) that compute the
            figures of 'skanc report --format json' (--no-verify), with the same --by and --zero-is-null:
            report_windows, report_tiers, report_cases, report_coarse, report_revenue_ranges, report_revenue and
            report_not_ok (docs/Reports.md lists their columns).

            OPTIONS:
              --dialect DIALECT    duckdb, postgres (also writes three helper functions), sqlite or spark.
              --table NAME         The table of raw lines (default postback_lines; schema.table allowed).
              --line-column NAME   Its column of line numbers (default line); the lowest wins among duplicates.
              --text-column NAME   Its column of JSON text (default text).
              --view NAME          The view to create (default decoded_postbacks); with --report, the one to read.
              --query              Write the query alone, without the view.
              --report             Write the report's views (above).
              --by GROUPINGS       With --report: what to group by, as 'skanc report --by' (default campaign).
              --zero-is-null       With --report: count a fine value of 0 as no value.
              -h, --help           Show this help.

            EXIT STATUS: 0 written, 1 a schema error or a file that cannot be read, 64 bad usage.
            """,
        run: run
    )

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitStatus {
        guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
            throw UsageError(
                message: arguments.positionals.isEmpty
                    ? "name the schema to decode with" : "sql takes one schema argument (versions: A.skan,B.skan)",
                command: "sql")
        }
        guard let dialect = arguments.options["--dialect"].flatMap(WarehouseDialect.init(rawValue:)) else {
            throw UsageError(message: "name the engine with --dialect duckdb|postgres|sqlite|spark", command: "sql")
        }
        let report = arguments.flags.contains("--report")
        if !report, arguments.options["--by"] != nil || arguments.flags.contains("--zero-is-null") {
            throw UsageError(message: "--by and --zero-is-null go with --report", command: "sql")
        }
        if report, arguments.flags.contains("--query") {
            throw UsageError(message: "--report writes views; drop --query", command: "sql")
        }
        let groupings = try GroupingOption.parse(arguments, command: "sql")
        if arguments.flags.contains("--query"), arguments.options["--view"] != nil {
            throw UsageError(message: "--query writes no view; drop --view", command: "sql")
        }
        for (option, qualified) in [
            ("--table", true), ("--line-column", false), ("--text-column", false), ("--view", true),
        ] {
            if let value = arguments.options[option], let problem = SQLName.problem(with: value, qualified: qualified) {
                throw UsageError(message: "the name given to \(option) \(problem)", command: "sql")
            }
        }
        var names = DecodeSQL.Names()
        if let table = arguments.options["--table"] { names.table = table }
        if let column = arguments.options["--line-column"] { names.lineColumn = column }
        if let column = arguments.options["--text-column"] { names.textColumn = column }
        if let view = arguments.options["--view"] { names.view = view }
        if arguments.flags.contains("--query") { names.view = nil }
        guard let versions = try SchemaInput.compileVersions(path, command: "sql") else { return .failure }
        if report {
            try GroupingOption.check(groupings, versions: versions, command: "sql")
            let sql = ReportSQL(
                versions: versions, dialect: dialect, groupings: groupings,
                zeroIsNull: arguments.flags.contains("--zero-is-null"), decodedView: names.view ?? "decoded_postbacks")
            Output.standard(sql.render(), terminator: "")
            return .success
        }
        Output.standard(DecodeSQL(versions: versions, dialect: dialect, names: names).render(), terminator: "")
        return .success
    }
}
