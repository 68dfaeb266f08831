import SkanCommandLine
import SkanCore
import SkanPostbacks
import SkanReports

extension ReportCommand {
    /// `report --check RULES`: the report grouped as the rules need it, each rule printed with what it saw.
    static func runCheck(
        _ arguments: ParsedArguments, rules path: String, schemaPath: String, _ context: CommandContext
    ) throws(UsageError)
        -> ExitStatus
    {
        for option in [GroupingOption.by.option, cost, format.option, output] where arguments.has(option) {
            throw UsageError(
                message: "--check groups and prints as its rules need: drop \(option.names[0])")
        }
        var run = try PostbackRun(arguments)
        guard let bytes = context.read(path, what: "the rules", limit: .configuration) else { return .failure }
        let check: ReportCheck
        do {
            check = try ReportCheck(text: String(decoding: bytes, as: UTF8.self))
        } catch {
            let location = SourceLocation(line: error.line, column: 1, offset: 0)
            return context.diagnostics([.error(.checkRulesInvalid, error.message, at: location)], path: path)
        }
        guard let versions = try SchemaInput.compileVersions(schemaPath, context) else {
            return .failure
        }
        run.readerOptions.withReceiptColumn = true
        run.readerOptions.grouping = PostbackReader.Grouping(
            groupings: ReportCheck.groupings, zeroIsNull: arguments.has(GroupingOption.zeroIsNull))
        run.readerOptions.writesRows = false
        let reader = PostbackReader(versions: versions, options: run.readerOptions, output: DiscardedOutput())
        let readAll = run.read(into: reader, context)
        let report = PostbackReport(tally: reader.tally!, summary: reader.summary, versions: versions)
        let findings = check.evaluate(report)
        for finding in findings {
            let detail = TerminalText.visible(finding.detail, oneLine: true)
            context.standard("\(path):\(finding.line): \(finding.fired ? "FIRED" : "ok"): \(detail)")
        }
        return readAll && !findings.contains(where: \.fired) ? .success : .failure
    }
}
