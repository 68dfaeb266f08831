import SkanWarehouse

/// `skanc sql SCHEMA --dialect D`: a view that decodes raw postback lines in a SQL engine as
/// `skanc postbacks --no-verify` does.
enum SQLCommand {
    static let command = Command(
        name: "sql",
        summary: "Write SQL that decodes raw postbacks in DuckDB, PostgreSQL, SQLite or Spark as 'postbacks' does.",
        flags: ["--query"],
        options: [
            "--dialect": WarehouseDialect.allCases.map(\.rawValue), "--table": [], "--line-column": [],
            "--text-column": [], "--view": [],
        ],
        help: """
            USAGE: skanc sql SCHEMA[,SCHEMA...] --dialect duckdb|postgres|sqlite|spark [--table NAME]
                             [--line-column NAME] [--text-column NAME] [--view NAME | --query]

            Writes a view (replaced when the file runs again) that turns a table of raw postback lines (a line
            number and the JSON text of one postback per row) into the rows of 'skanc postbacks --no-verify': the
            same columns in the same order, the same status codes with the same precedence, the schema's fields
            and the coarse meanings, the duplicate check as a window over the transaction or postback identifier.
            Signatures are not checked: verify them with 'skanc postbacks' where the postbacks arrive. Where an
            engine's JSON functions cannot make a distinction skanc makes, docs/Warehouse.md says so.

            OPTIONS:
              --dialect DIALECT    duckdb, postgres (also writes three helper functions), sqlite or spark.
              --table NAME         The table of raw lines (default postback_lines; schema.table allowed).
              --line-column NAME   Its column of line numbers (default line); the lowest wins among duplicates.
              --text-column NAME   Its column of JSON text (default text).
              --view NAME          The view to create (default decoded_postbacks).
              --query              Write the query alone, without the view.
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
        if arguments.flags.contains("--query"), arguments.options["--view"] != nil {
            throw UsageError(message: "--query writes no view; drop --view", command: "sql")
        }
        var names = DecodeSQL.Names()
        for (option, keyPath) in [
            ("--table", \DecodeSQL.Names.table), ("--line-column", \.lineColumn), ("--text-column", \.textColumn),
        ] {
            guard let value = arguments.options[option] else { continue }
            guard !value.isEmpty else { throw UsageError(message: "\(option) needs a name", command: "sql") }
            names[keyPath: keyPath] = value
        }
        if let view = arguments.options["--view"] { names.view = view }
        if arguments.flags.contains("--query") { names.view = nil }
        guard let versions = try SchemaInput.compileVersions(path, command: "sql") else { return .failure }
        Output.standard(DecodeSQL(versions: versions, dialect: dialect, names: names).render(), terminator: "")
        return .success
    }
}
