import SkanCommandLine
import SkanCompiler
import SkanPostbacks
import SkanSchema

/// `skanc postbacks SCHEMA[,SCHEMA...] [FILE...]`: one output row per non-blank postback line, always.
enum PostbacksCommand {
    static let format = ChoiceOption<PostbackFormat>(
        "--format", placeholder: "FORMAT", default: .csv,
        help: "csv (RFC 4180 with CRLF, spreadsheet-safe) or jsonl (one JSON object per row).")
    static let summary = CommandOption.flag(
        "--summary",
        help: "Also print counts to standard error: lines, ok, each problem, duplicates, cases, coarse values per "
            + "window, postbacks without a value by privacy tier.")
    static let summaryOnly = CommandOption.flag("--summary-only", help: "Print only the summary, to standard output.")

    static let command = Command(
        name: "postbacks",
        summary: "Decode postback files (SKAdNetwork, AdAttributionKit JSON lines), one row per line.",
        operands: "SCHEMA[,SCHEMA...] [FILE...]",
        options: [format, summary, summaryOnly] + PostbackRun.options,
        discussion: """
            Decodes postbacks, one JSON object per line (SKAdNetwork 1.0-4.0 and AdAttributionKit), checks them
            against Apple's rules for their version and decodes their values with the schema's exact semantics.
            Reads standard input when no FILE (or -) is given. Every non-blank line gets one output row:
            \(columnList)
            With several files, a first column names the file. Status codes, rules and columns are documented
            in docs/Postbacks.md.

            Several schemas, separated by commas, are versions live together ('skanc check --live-together'
            proves them apart): each fine value is decoded with the version it belongs to, in a schema_version
            column before the fields of every version; a value valid in several is ambiguous-version.
            """,
        exitStatus: """
            0 every line ok, 1 some line has a problem (or a file cannot be read, or a schema error), 64 bad \
            usage.
            """,
        run: run
    )

    /// The columns as the help lists them, wrapped to the help's width; from `PostbackColumn`.
    static var columnList: String {
        let names = PostbackColumn.beforeFields.filter { $0 != .file }.map {
            switch $0 {
            case .schemaVersion: "schema_version (with several schemas)"
            case .receivedAt: "received_at (with skanc serve's .times files)"
            default: $0.name
            }
        }
        let items = names + ["one column per schema field"] + PostbackColumn.afterFields.map(\.name)
        var lines: [String] = []
        var current = ""
        for (index, item) in items.enumerated() {
            let piece = item + (index == items.count - 1 ? "." : ",")
            if !current.isEmpty, current.count + 1 + piece.count > 100 {
                lines.append(current)
                current = piece
            } else {
                current += (current.isEmpty ? "" : " ") + piece
            }
        }
        lines.append(current)
        return lines.joined(separator: "\n")
    }

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(UsageError) -> ExitStatus {
        let schemaPath = try SchemaInput.operand(arguments, "to decode postbacks with")
        if arguments.has(summary), arguments.has(summaryOnly) {
            throw UsageError(message: "use --summary or --summary-only, not both")
        }
        var run = try PostbackRun(arguments)
        guard let catalog = try SchemaInput.compileCatalog(schemaPath, context) else {
            return .failure
        }
        let summaryOnly = arguments.has(summaryOnly)
        run.readerOptions.format = arguments.value(format)
        run.readerOptions.writesRows = !summaryOnly
        let output: any PostbackOutput = summaryOnly ? DiscardedOutput() : context.standardOutput
        let reader = PostbackReader(catalog: catalog, options: run.readerOptions, output: output)
        reader.writeHeader()
        let readAll = run.read(into: reader, context)
        if summaryOnly {
            context.standard(reader.summary.text, terminator: "")
        } else if arguments.has(summary) {
            context.error(reader.summary.text, terminator: "")
        }
        return !readAll || reader.summary.ok != reader.summary.read ? .failure : .success
    }
}
