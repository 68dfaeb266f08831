import SkanAppleAds
import SkanCommandLine
import SkanCore
import SkanFiles

/// `skanc attribution FILE...`: Apple Ads attribution records, AdServices and iAd alike, as one table.
enum AttributionCommand {
    static let format = ChoiceOption<AttributionRows.Format>(
        "--format", placeholder: "FORMAT", default: .csv, help: "csv (RFC 4180 with CRLF, spreadsheet-safe) or jsonl.")
    static let summary = CommandOption.flag("--summary", help: "Also print the count of each status to standard error.")

    static let command = Command(
        name: "attribution",
        summary: "Turn Apple Ads attribution records (AdServices answers, iAd dictionaries) into one table.",
        operands: "[FILE...]",
        options: [format, summary],
        discussion: """
            Reads Apple Ads attribution records, one JSON object per line: answers of the AdServices attribution
            API ({"attribution":true,"campaignId":...}) and dictionaries of the retired iAd framework
            ({"iad-attribution":"true","iad-campaign-id":"..."}, also wrapped as {"Version3.1":{...}}), and
            writes one row per non-blank line in one set of columns (below; source is adservices or iad, dates
            are ISO 8601 in UTC). Reads standard input when no FILE (or -) is given; with several files a first
            column names the file.

            COLUMNS:
            \(HelpLayout.fill(AttributionRows.columns.map { $0 + "," }, firstPrefix: "  ", indent: "  ").dropLast())

            STATUS: ok, not-json, not-object, unknown-format (neither AdServices nor iAd), missing-field (no
            attribution flag), wrong-type (a number that is not whole), out-of-range (over 18 digits), bad-date
            (not ISO 8601, or outside years 1-9999), line-too-long (over 1 MiB); field names the key at fault.
            JSON is read as 'skanc postbacks' reads it; files are streamed.
            """,
        exitStatus: "0 every line ok, 1 some line has a problem (or a file cannot be read), 64 bad usage.",
        run: run
    )

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(UsageError) -> ExitStatus {
        var inputs = arguments.positionals
        if inputs.isEmpty { inputs = ["-"] }
        guard inputs.filter({ $0 == "-" }).count <= 1 else {
            throw UsageError(message: "standard input (-) can be read once")
        }
        let format = arguments.value(format)
        var rows = AttributionRows(format: format, withFile: inputs.count > 1)
        context.standard(rows.header, terminator: "")
        var failed = false
        for input in inputs {
            do {
                // Streamed: rows are written as their lines are read, in chunks of 1 MiB.
                let file = try context.open(input, expecting: "a file of attribution records (JSON lines)")
                while case let chunk = try file.nextChunk(), !chunk.isEmpty {
                    context.standard(rows.rows(ofChunk: chunk[...], file: file.displayName), terminator: "")
                }
                context.standard(rows.finish(file: file.displayName), terminator: "")
            } catch {
                rows.abandon()
                context.diagnostics([error.diagnostic], path: error.displayName)
                failed = true
            }
        }
        if arguments.has(summary) {
            let counts = rows.counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            context.error("\(rows.rows) records: \(counts.isEmpty ? "none" : counts)")
        }
        return failed || rows.counts.keys.contains(where: { $0 != "ok" }) ? .failure : .success
    }
}

/// `items` joined with commas into lines of at most `width` characters, each starting with `indent`.
private func wrappedList(_ items: [String], indent: String, width: Int) -> String {
    var lines: [String] = []
    var line = indent
    for (index, item) in items.enumerated() {
        let piece = item + (index == items.count - 1 ? "" : ",")
        if line.count > indent.count, line.count + 1 + piece.count > width {
            lines.append(line)
            line = indent
        }
        line += (line.count > indent.count ? " " : "") + piece
    }
    return (lines + [line]).joined(separator: "\n")
}
