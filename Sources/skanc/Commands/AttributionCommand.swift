import Foundation
import SkanAppleAds
import SkanCore

/// `skanc attribution FILE...`: Apple Ads attribution records, AdServices and iAd alike, as one table.
enum AttributionCommand {
    static let command = Command(
        name: "attribution",
        summary: "Turn Apple Ads attribution records (AdServices answers, iAd dictionaries) into one table.",
        flags: ["--summary"],
        options: ["--format": AttributionRows.Format.allCases.map(\.rawValue)],
        help: """
            USAGE: skanc attribution [FILE...] [--format csv|jsonl] [--summary]

            Reads Apple Ads attribution records, one JSON object per line: answers of the AdServices attribution
            API ({"attribution":true,"campaignId":...}) and dictionaries of the retired iAd framework
            ({"iad-attribution":"true","iad-campaign-id":"..."}, also wrapped as {"Version3.1":{...}}), and
            writes one row per non-blank line in one set of columns (below; source is adservices or iad, dates
            are ISO 8601 in UTC). Reads standard input when no FILE (or -) is given; with several files a first
            column names the file.

            COLUMNS:
            \(wrappedList(AttributionRows.columns, indent: "  ", width: 110))

            STATUS: ok, not-json, not-object, unknown-format (neither AdServices nor iAd), missing-field (no
            attribution flag), wrong-type (a number that is not whole), out-of-range (over 18 digits), bad-date
            (not ISO 8601, or outside years 1-9999), line-too-long (over 1 MiB); field names the key at fault.
            JSON is read as 'skanc postbacks' reads it; files are streamed.

            OPTIONS:
              --format FORMAT   csv (default; RFC 4180 with CRLF, spreadsheet-safe) or jsonl.
              --summary         Also print the count of each status to standard error.
              -h, --help        Show this help.

            EXIT STATUS: 0 every line ok, 1 some line has a problem (or a file cannot be read), 64 bad usage.
            """,
        run: run
    )

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitStatus {
        var inputs = arguments.positionals
        if inputs.isEmpty { inputs = ["-"] }
        guard inputs.filter({ $0 == "-" }).count <= 1 else {
            throw UsageError(message: "standard input (-) can be read once", command: "attribution")
        }
        let format = arguments.options["--format"].flatMap(AttributionRows.Format.init(rawValue:)) ?? .csv
        var rows = AttributionRows(format: format, withFile: inputs.count > 1)
        Output.standard(rows.header, terminator: "")
        var failed = false
        for input in inputs {
            let handle: FileHandle
            if input == "-" {
                handle = FileHandle.standardInput
            } else {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory), !isDirectory.boolValue,
                    let opened = FileHandle(forReadingAtPath: input)
                else {
                    Output.diagnostics(
                        [.error(.fileUnreadable, "cannot read the file; check the path", at: nil)], path: input)
                    failed = true
                    continue
                }
                handle = opened
            }
            // Streamed: rows are written as their lines are read, in chunks of 1 MiB.
            let name = input == "-" ? "<stdin>" : input
            while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                Output.standard(rows.rows(ofChunk: [UInt8](chunk)[...], file: name), terminator: "")
            }
            Output.standard(rows.finish(file: name), terminator: "")
            if input != "-" { try? handle.close() }
        }
        if arguments.flags.contains("--summary") {
            let counts = rows.counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            Output.error("\(rows.rows) records: \(counts.isEmpty ? "none" : counts)")
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
