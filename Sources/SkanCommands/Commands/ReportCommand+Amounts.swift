import Foundation
import SkanCommandLine
import SkanCompiler
import SkanCore
import SkanReports
import SkanSchema
import SkanSchemaTools

extension ReportCommand {
    static let amounts = CommandOption.text(
        "--amounts", placeholder: "FILE",
        help: "A prior for the revenue estimate: amounts per install from a period you know (one per line for the "
            + "schema's one amount field, or a CSV whose header names the fields), read inside each range instead "
            + "of its mid-point.")

    /// The prior `--amounts` names, read for the amount fields of `versions`; nil when the option is absent.
    /// `.failure` when the file cannot be read or holds no usable amounts (the diagnostics printed).
    static func readPrior(_ path: String, versions: LiveVersions, _ context: CommandContext) throws(UsageError)
        -> Result<RevenuePrior, Failed>
    {
        let fields = ReportColumns(versions: versions).revenue.map(\.column)
        guard !fields.isEmpty else {
            throw UsageError(
                message: "--amounts is a prior for 'buckets amount' fields, and the schema has none")
        }
        guard let bytes = context.read(path, what: "the amounts", limit: .table) else { return .failure(Failed()) }
        let text = String(decoding: bytes, as: UTF8.self)
        let shown = path == "-" ? "<stdin>" : path
        let firstLine = text.split(whereSeparator: \.isNewline).lazy
            .map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\u{FEFF}", with: "") }
            .first { !$0.isEmpty }
        var prior: [String: [Double]] = [:]
        if let firstLine, AmountFile.amount(firstLine) != nil {
            guard fields.count == 1 else {
                throw UsageError(
                    message: "the schema has \(fields.count) amount fields (\(fields.joined(separator: ", "))): give "
                        + "--amounts a CSV whose header names them")
            }
            let read = AmountFile.read(text, column: nil)
            guard read.diagnostics.isEmpty else {
                _ = context.diagnostics(read.diagnostics, path: shown)
                return .failure(Failed())
            }
            prior[fields[0]] = read.amounts
        } else {
            let header = (firstLine ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let named = fields.filter(header.contains)
            guard !named.isEmpty else {
                let problem = Diagnostic.error(
                    .amountsCSV,
                    "the header names no amount field of the schema (\(fields.joined(separator: ", "))); "
                        + "name one, or give one amount per line",
                    at: SourceLocation(line: 1, column: 1, offset: 0))
                _ = context.diagnostics([problem], path: shown)
                return .failure(Failed())
            }
            for field in named {
                let read = AmountFile.read(text, column: field)
                guard read.diagnostics.isEmpty else {
                    _ = context.diagnostics(read.diagnostics, path: shown)
                    return .failure(Failed())
                }
                prior[field] = read.amounts
            }
        }
        guard prior.values.contains(where: { !$0.isEmpty }) else {
            _ = context.diagnostics([.error(.amountsEmpty, "no amounts in the prior", at: nil)], path: shown)
            return .failure(Failed())
        }
        return .success(RevenuePrior(amounts: prior))
    }

    /// A prior that could not be read; its diagnostics are printed.
    struct Failed: Error {}
}

extension ReportCommand {
    /// The table file at `path` (`what` it is, for errors) made by `parse`; nil, its problem printed as a
    /// diagnostic `code` at its line, when it cannot be read or parsed.
    static func readTable<Table>(
        _ path: String, what: String, code: DiagnosticCode,
        _ parse: (String) throws(CostTable.Invalid) -> Table, _ context: CommandContext
    ) -> Table? {
        guard let bytes = context.read(path, what: what, limit: .table) else { return nil }
        do {
            return try parse(String(decoding: bytes, as: UTF8.self))
        } catch {
            let location = error.line.map { SourceLocation(line: $0, column: 1, offset: 0) }
            _ = context.diagnostics([.error(code, error.message, at: location)], path: path)
            return nil
        }
    }
}
