import Foundation
import SkanCommandLine
import SkanCompiler
import SkanCore
import SkanSchema
import SkanSchemaTools

/// `skanc suggest buckets --from FILE --bits N [--column C]`: revenue ranges cut from observed amounts.
enum SuggestCommand {
    static let from = CommandOption.text("--from", placeholder: "FILE", help: "The amounts (required).")
    static let bits = IntegerOption(
        "--bits", placeholder: "N", range: 1...6,
        help: "The field's width: 2^N ranges, 1 to 6 (required).")
    static let column = CommandOption.text(
        "--column", placeholder: "C", help: "Read the CSV column C (by its header) instead of one number per line.")
    static let sourceEvent = CommandOption.text(
        "--event", placeholder: "NAME", defaultValue: "purchase", help: "The event the field sums.")
    static let field = CommandOption.text(
        "--name", placeholder: "FIELD", defaultValue: "revenue", help: "The field's name.")

    static let command = Command(
        name: "suggest",
        summary: "Suggest revenue buckets from observed amounts (suggest buckets).",
        operands: "buckets",
        options: [from, bits, column, sourceEvent, field],
        discussion: """
            Cuts observed amounts (FILE, - for standard input: one number per line, or with --column the column C
            of a CSV file with a header row) into 2^N ranges for a 'buckets amount' field. The optimal cut makes
            decoding each amount by its range's mid-point lose the least revenue (the sum of the distances, found
            exactly by dynamic programming over the distinct amounts; beyond 2000 of them, over 2000 quantiles);
            quantile and log-spaced cuts are shown beside it with their errors. A range runs from its first
            amount to the next range's; the first starts at 0. Last, the optimal cut as a field block to paste
            (--event names its source event; --name the field).
            A line that is not a number, or a negative amount, is an error with its line number.
            """,
        exitStatus: "0 suggested, 1 an amount cannot be read (or the file), 64 bad usage.",
        run: run
    )

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(UsageError) -> ExitStatus {
        guard arguments.positionals == ["buckets"] else {
            throw UsageError(
                message: "say what to suggest: 'skanc suggest buckets --from FILE --bits N'")
        }
        guard let path = arguments[from] else {
            throw UsageError(message: "name the amounts with --from FILE")
        }
        guard let bits = arguments[bits] else {
            throw UsageError(message: "say how many bits the field has with --bits N (1 to 6)")
        }
        let event = arguments[sourceEvent] ?? "purchase"
        let name = arguments[field] ?? "revenue"
        for (option, value) in [("--event", event), ("--name", name)] where !SchemaIdentifier.isValid(value) {
            throw UsageError(
                message:
                    "\(option) takes a schema name (a letter or '_', then letters, digits and '_'), not '\(value)'")
        }
        guard let bytes = context.read(path, what: "the amounts", limit: .table) else { return .failure }
        let text = String(decoding: bytes, as: UTF8.self)
        let shown = path == "-" ? "<stdin>" : path
        let read = AmountFile.read(text, column: arguments[column])
        guard read.diagnostics.isEmpty else { return context.diagnostics(read.diagnostics, path: shown) }
        guard !read.amounts.isEmpty else {
            return context.diagnostics(
                [.error(.amountsEmpty, "no amounts to cut; the file has none", at: nil)], path: shown)
        }
        let suggestion = BucketSuggestion(amounts: read.amounts, bits: bits)
        var lines: [String] = []
        for cut in suggestion.cuts {
            lines.append("\(cut.method.rawValue) cut: mean error \(money(cut.meanError)) per install")
            for (index, lower) in cut.lowers.enumerated() {
                let upper = index + 1 < cut.lowers.count ? "..<\(ConditionNumber.text(cut.lowers[index + 1]))" : "..."
                lines.append(
                    "  r\(index)  \(ConditionNumber.text(lower))\(upper)  \(cut.countPerRange[index]) installs, mean error \(money(cut.errorPerRange[index]))"
                )
            }
            lines.append("")
        }
        lines.append(suggestion.fieldBlock(name: name, event: event, bits: bits))
        context.standard(lines.joined(separator: "\n"), terminator: "")
        return .success
    }

    static func money(_ value: Double) -> String {
        ConditionNumber.text((value * 100).rounded() / 100)
    }
}

/// Amounts read from a file: one per line, or a CSV column by its header; each bad line an error.
enum AmountFile {
    /// `cell` as an amount: plain decimal digits with an optional fraction (`12`, `4.99`), as spreadsheets
    /// write money; not hexadecimal (`0x10`), exponents, signs, or text after the number.
    static func amount(_ cell: String) -> Double? {
        let parts = cell.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty,
            parts.allSatisfy({ part in
                part.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
            }), parts.count == 1 || !parts[1].isEmpty, let amount = Double(cell), amount <= ConditionNumber.largest
        else { return nil }
        return amount
    }

    static func read(_ original: String, column: String?) -> (amounts: [Double], diagnostics: [Diagnostic]) {
        // Excel's "CSV UTF-8" starts with a byte order mark; Windows ends lines with CR LF, which Swift reads as
        // one character, never as "\n".
        var text = original.hasPrefix("\u{FEFF}") ? String(original.dropFirst()) : original
        text = text.replacingOccurrences(of: "\r\n", with: "\n")
        var amounts: [Double] = []
        var problems: [Diagnostic] = []
        func take(_ cell: String, line: Int) {
            let trimmed = cell.trimmingCharacters(in: .whitespaces)
            guard let amount = amount(trimmed) else {
                problems.append(
                    .error(
                        .amountInvalid,
                        "'\(TerminalText.visible(String(trimmed.prefix(40))))' is not an amount (digits with an optional fraction, like 4.99, at most 1e15)",
                        at: SourceLocation(line: line, column: 1, offset: 0)))
                return
            }
            amounts.append(amount)
        }
        guard let column else {
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let cell = line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
                if cell.trimmingCharacters(in: .whitespaces).isEmpty { continue }
                take(cell, line: index + 1)
            }
            return (amounts, problems)
        }
        let records: [[String]]
        do {
            records = try StrictCSV.records(text)
        } catch {
            return ([], [.error(.amountsCSV, "not CSV: \(error.reason) (at byte \(error.offset))", at: nil)])
        }
        guard let header = records.first, let position = header.firstIndex(of: column) else {
            return (
                [], [.error(.amountsCSV, "no column '\(TerminalText.visible(column))' in the header row", at: nil)]
            )
        }
        for (index, record) in records.dropFirst().enumerated() where record != [""] {
            guard position < record.count else {
                problems.append(
                    .error(
                        .amountsCSV, "the row has no '\(column)' cell",
                        at: SourceLocation(line: index + 2, column: 1, offset: 0)))
                continue
            }
            take(record[position], line: index + 2)
        }
        return (amounts, problems)
    }
}
