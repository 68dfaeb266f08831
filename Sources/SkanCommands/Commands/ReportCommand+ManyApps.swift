import SkanCommandLine
import SkanCore
import SkanPostbacks
import SkanReports

extension ReportCommand {
    /// `skanc report --schemas DIR` of many apps: one pass over the postbacks, each decoded with its own app's
    /// versions and grouped by `app_id` first, then each app's report (`ManyAppsReport`). What joins files to
    /// one app's groups (a cost or names file, a prior of amounts, checks, the wide and install-day layouts) reads
    /// one app's report: those name `DIR/APP_ID`.
    static func runManyApps(_ arguments: ParsedArguments, folder: String, _ context: CommandContext) throws(UsageError)
        -> ExitStatus
    {
        let oneApp: [any OptionDeclaration] = [check, amounts, cost, names, wide]
        for declared in oneApp where arguments.has(declared.option) {
            throw UsageError(
                message: "\(declared.option.names[0]) reads one app's report: name its folder, \(folder)/APP_ID")
        }
        let format = arguments.value(format)
        guard ManyAppsReport.formats.contains(format) else {
            throw UsageError(
                message: "a report of many apps is written as "
                    + ManyAppsReport.formats.map(\.rawValue).joined(separator: " or ")
                    + "; --format \(format.rawValue) reads one app's: name its folder, \(folder)/APP_ID")
        }
        if try installDayGroupings(arguments) != nil {
            throw UsageError(message: "--by install_day reads one app's postbacks: name its folder, \(folder)/APP_ID")
        }
        let groupings = try [.appID] + GroupingOption.parse(arguments).filter { $0 != .appID }
        var run = try PostbackRun(arguments)
        try context.refuseOutput(
            arguments[output], over: run.readFiles, what: "the report")
        guard let catalog = try SchemaInput.compileCatalog(folder, context) else { return .failure }
        let trendDays = try group(&run, by: groupings, arguments)
        let reader = PostbackReader(catalog: catalog, options: run.readerOptions, output: DiscardedOutput())
        let readAll = run.read(into: reader, context)
        let report = ManyAppsReport(
            tally: reader.tally!, summary: reader.summary, catalog: catalog, foldingDay: trendDays)
        let written = emit(to: arguments[output], context) { report.write(format, to: $0) }
        if let notOK = report.notOKWarning {
            context.diagnostics([notOK], path: run.inputs.joined(separator: ", "))
        }
        return readAll ? written : .failure
    }
}
