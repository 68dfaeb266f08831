import SkanCommandLine
import SkanCore
import SkanFiles
import SkanPostbacks
import SkanReports

extension ReportCommand {
    /// The other groupings when `--by` names `install_day`; nil when it does not.
    static func installDayGroupings(_ arguments: ParsedArguments) throws(UsageError) -> [PostbackGrouping]? {
        let items = try arguments.items(GroupingOption.by) ?? []
        guard items.contains(.installDay) else { return nil }
        let groupings = items.compactMap { item -> PostbackGrouping? in
            guard case .grouping(let grouping) = item else { return nil }
            return grouping
        }
        if groupings.contains(.day) {
            throw UsageError(
                message: "--by install_day counts installs by the day they first launched: drop day (the receipt "
                    + "day it is worked out from)")
        }
        return groupings
    }

    /// `report --by [GROUPINGS,]install_day`: installs by day of first launch, as hard intervals.
    static func runInstallDays(
        _ arguments: ParsedArguments, groupings: [PostbackGrouping], schemaPath: String, _ context: CommandContext
    )
        throws(UsageError) -> ExitStatus
    {
        for option in [cost, wide, amounts] where arguments.has(option) {
            throw UsageError(
                message: "--by install_day reports installs by day of first launch: drop \(option.names[0])")
        }
        var run = try PostbackRun(arguments)
        let schemas = schemaPath.split(separator: ",").map { (String($0), "a schema it reads") }
        try context.refuseOutput(
            arguments[output], over: schemas + run.readFiles, what: "the report")
        guard let versions = try SchemaInput.compileVersions(schemaPath, context) else {
            return .failure
        }
        try GroupingOption.check(groupings, versions: versions)
        guard run.readerOptions.withReceiptColumn else {
            throw UsageError(
                message:
                    "--by install_day needs receipt times, which skanc serve keeps beside its segments: read the "
                    + "store's postbacks/*/*.jsonl (each NAME.times beside its NAME.jsonl)")
        }
        run.readerOptions.grouping = PostbackReader.Grouping(
            groupings: groupings + [.day], zeroIsNull: arguments.has(GroupingOption.zeroIsNull))
        run.readerOptions.writesRows = false
        let reader = PostbackReader(versions: versions, options: run.readerOptions, output: DiscardedOutput())
        let readAll = run.read(into: reader, context)
        let report = PostbackReport(tally: reader.tally!, summary: reader.summary, versions: versions)
        let cohorts = InstallDayCohorts(report, versions: versions)
        let format = arguments.value(format)
        let text = cohorts.render(format)
        let written: ExitStatus
        if let path = arguments[output] {
            written = context.write(bytes: Array(text.utf8), to: path)
        } else {
            context.standardOutput.write(Array(text.utf8))
            written = .success
        }
        if let notOK = report.notOKWarning {
            context.diagnostics([notOK], path: run.inputs.joined(separator: ", "))
        }
        return readAll ? written : .failure
    }
}
