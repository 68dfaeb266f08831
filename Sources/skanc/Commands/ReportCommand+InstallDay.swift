import SkanCommandLine
import SkanCore
import SkanFiles
import SkanPostbacks
import SkanReports

extension ReportCommand {
    /// The name `--by` takes for install-day cohorts: not a grouping of postbacks (a postback's install lies on one
    /// of several days), so it is read here and reported apart (`InstallDayCohorts`).
    static let installDay = "install_day"

    /// The other groupings when `--by` names `install_day`; nil when it does not.
    static func installDayGroupings(_ arguments: ParsedArguments) throws(UsageError) -> [PostbackGrouping]? {
        guard let text = arguments[GroupingOption.by] else { return nil }
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard names.contains(installDay) else { return nil }
        let others = names.filter { $0 != installDay }
        guard others.count == names.count - 1 else {
            throw UsageError(message: "--by names install_day twice")
        }
        guard !others.isEmpty else { return [] }
        guard let groupings = PostbackGrouping.list(others.joined(separator: ",")) else {
            throw UsageError(
                message: "--by takes groupings separated by commas, each once: "
                    + (PostbackGrouping.allCases.map(\.rawValue) + [installDay]).joined(separator: ", "))
        }
        if groupings.contains(.day) {
            throw UsageError(
                message: "--by install_day counts installs by the day they first launched: drop day (the receipt "
                    + "day it is worked out from)")
        }
        return groupings
    }

    /// `report --by [GROUPINGS,]install_day`: installs by day of first launch, as hard intervals.
    static func runInstallDays(_ arguments: ParsedArguments, groupings: [PostbackGrouping], schemaPath: String)
        throws(UsageError) -> ExitStatus
    {
        for option in [cost, wide, amounts] where arguments.has(option) {
            throw UsageError(
                message: "--by install_day reports installs by day of first launch: drop \(option.names[0])")
        }
        var run = try PostbackRun(arguments, command: "report")
        let schemas = schemaPath.split(separator: ",").map { (String($0), "a schema it reads") }
        try CommandFiles.refuseOutput(
            arguments[output], over: schemas + run.readFiles, what: "the report", command: "report")
        guard let versions = try SchemaInput.compileVersions(schemaPath, command: "report") else { return .failure }
        try GroupingOption.check(groupings, versions: versions, command: "report")
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
        let readAll = run.read(into: reader)
        let report = PostbackReport(tally: reader.tally!, summary: reader.summary, versions: versions)
        let cohorts = InstallDayCohorts(report, versions: versions)
        let format = arguments.value(format)
        let text = cohorts.render(format)
        let written: ExitStatus
        if let path = arguments[output] {
            written = CommandFiles.write(bytes: Array(text.utf8), to: path)
        } else {
            Output.standardOutput.write(Array(text.utf8))
            written = .success
        }
        if let notOK = report.notOKWarning {
            Output.diagnostics([notOK], path: run.inputs.joined(separator: ", "))
        }
        return readAll ? written : .failure
    }
}
