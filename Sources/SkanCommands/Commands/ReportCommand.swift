import SkanCommandLine
import SkanCore
import SkanFiles
import SkanPostbacks
import SkanReports

/// `skanc report SCHEMA[,SCHEMA...] POSTBACKS...`: campaign figures from the same decoding as `postbacks`.
enum ReportCommand {
    static let format = ChoiceOption<ReportFormat>(
        "--format", placeholder: "FORMAT", default: .markdown,
        help: "markdown, html (one self-contained page with SVG charts), json (the interface for scripts, "
            + "docs/Reports.md) or csv (one figure a row).")
    static let output = OutputOption.named(writing: "the report", onlyWhenChanged: false)
    static let cost = CommandOption.text(
        "--cost", placeholder: "FILE",
        help: "Join spend from a CSV of network,campaign,day,spend,currency: spend, cost per install and return on "
            + "ad spend per group (group by ad_network_id and one campaign grouping, and day).")

    static let names = CommandOption.text(
        "--names", placeholder: "FILE",
        help: "Name the campaigns from a CSV of network,campaign,name (group by ad_network_id and one campaign "
            + "grouping, and day).")

    static let wide = CommandOption.flag(
        "--wide",
        help: "With --format csv: one row per group and one column per figure, for Excel, Looker Studio and bq load; "
            + "with -o FILE.csv, the BigQuery schema is written beside it as FILE.schema.json.")
    static let check = CommandOption.text(
        "--check", placeholder: "RULES",
        help: "Check the rules of a file instead of writing the report (null share moving day over day, "
            + "failing verification, unknown schema version, a campaign's installs falling to zero): exit 1 when "
            + "one fires, for cron and CI (docs/Reports.md).")

    static let command = Command(
        name: "report",
        summary: "Report on postbacks per campaign: null rate, cases, coarse values, revenue, rows not ok.",
        operands: "SCHEMA[,SCHEMA...] [FILE...]",
        options: [format, output, GroupingOption.by, GroupingOption.zeroIsNull, cost, names, amounts, wide, check]
            + PostbackRun.options,
        discussion: """
            Decodes postbacks as 'skanc postbacks' does (signatures verified by default; standard input when no
            FILE is given) and reports, per group of ok postbacks and per window: the postbacks, how many carried a
            fine value, a coarse value or neither (the null rate), their privacy tiers, each field's cases and the
            coarse values; the revenue that buckets amount fields imply, as range arithmetic (low, mid-point and
            high totals in the events' currency, and per install); and the rows that were not ok, by status. Every
            line is counted once: in a group when it is ok, by its status otherwise.

            GROUPINGS (--by, default ad_network_id,campaign: one row per campaign as each network defines it):
            campaign (the first two digits of source_identifier, into which the finer digits of high tiers fold,
            or campaign_id before SKAdNetwork 4.0), source_identifier (the digits each postback shows),
            source_identifier_2
            and source_identifier_3 (its first two or three digits: Apple's hierarchy, where the first two are the
            campaign every tier reports, so each campaign is one row), campaign_id,
            ad_network_id, app_id, publisher, country_code, framework, conversion_type, interaction, did_win
            (won or contributed), schema_version (with versions live together), day (the UTC day skanc serve
            received it; from the .times files beside a store's segments). Several, separated by commas, group by
            each in turn: --by campaign,country_code.

            INSTALL DAYS (--by [GROUPINGS,]install_day, a store's segments with their .times files): installs by
            the day they first launched the app, worked out from the day each window-1 postback was received, the
            schema's earliest lock of window 1 and Apple's send delays: per day the installs certainly and possibly
            on it, the installs up to it (tighter bounds), and an allocation labelled as one (docs/Reports.md).

            COST (--cost FILE): a CSV with the header network,campaign,day,spend,currency, one currency in all,
            as exported from the networks. A row counts for the group of its network and campaign (rolled up to
            the digits grouped by: 5239 counts for 52 with source_identifier_2) and, grouped by day, its day.
            Each group gets its spend, cost per install (spend over window-1 postbacks) and return on ad spend
            over all its installs (the hard bounds of each revenue field over the spend, and an estimate apart;
            none for a field in another currency). Rows that match no group are noted with their spend.

            ESTIMATES: beside the hard bounds (which hold whatever the users did), each group's revenue is
            estimated over all its installs and over those without a fine value (from its fine-value installs),
            labelled as estimates with their method. By default a range counts at its mid-point, which overstates
            ranges where amounts crowd at the low end and understates open ones (20...); --amounts FILE gives a
            prior (amounts per install from a period you know, such as last month's first-two-day revenue), and
            each range counts at the mean of the prior's amounts inside it, its spread in the interval
            (docs/Reports.md, "Estimates").

            NAMES (--names FILE): a CSV with the header network,campaign,name; each campaign row is shown with
            its name (a name given for finer digits, 5239, names the campaign 52 they fold into).

            CHECK (--check RULES): one rule a line, '#' a comment: null-share-change WINDOW POINTS,
            failing-verification PERCENT, unknown-version PERCENT, installs-to-zero. Each rule is printed with
            what it saw, FIRED or ok; days are those skanc serve received the postbacks on (read the store's
            segments with their .times files).
            """,
        exitStatus: """
            0 the report is written (rows that are not ok are counted in it, and their number is
            printed to standard error), 1 a file cannot be read or written (or a schema error), 64 bad usage.
            With --check: 0 no rule fired, 1 one fired (or a file cannot be read), 64 bad usage.
            """,
        run: run
    )

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(UsageError) -> ExitStatus {
        let schemaPath = try SchemaInput.operand(arguments, "to decode postbacks with")
        if SchemaInput.holdsManyApps(schemaPath) { return try runManyApps(arguments, folder: schemaPath, context) }
        if let rules = arguments[check] {
            return try runCheck(arguments, rules: rules, schemaPath: schemaPath, context)
        }
        if let others = try installDayGroupings(arguments) {
            return try runInstallDays(arguments, groupings: others, schemaPath: schemaPath, context)
        }
        let groupings = try GroupingOption.parse(arguments)
        if arguments.has(wide), arguments.value(format) != .csv {
            throw UsageError(message: "--wide is a CSV layout: add --format csv")
        }
        if arguments.has(wide), let path = arguments[output], wideSchemaPath(of: path) == path {
            throw UsageError(message: "-o with --wide names a .csv file (its schema goes beside it)")
        }
        var run = try PostbackRun(arguments)
        let schemas = schemaPath.split(separator: ",").map { (String($0), "a schema it reads") }
        let costFile =
            (arguments[cost].map { [($0, "the cost file it reads")] } ?? [])
            + (arguments[names].map { [($0, "the names it reads")] } ?? [])
            + (arguments[amounts].map { [($0, "the amounts it reads")] } ?? [])
        try context.refuseOutput(
            arguments[output],
            over: schemas + costFile + run.readFiles, what: "the report")
        if arguments.has(wide), let path = arguments[output] {
            try context.refuseOutput(
                wideSchemaPath(of: path), over: schemas + costFile + run.readFiles, what: "the report's schema")
        }
        for option in [cost, names] where arguments.has(option) {
            if let problem = CostTable.problem(with: groupings) {
                throw UsageError(message: "\(option.names[0]): " + problem)
            }
        }
        guard let versions = try SchemaInput.compileVersions(schemaPath, context) else {
            return .failure
        }
        var costs: CostTable?
        if let path = arguments[cost] {
            guard
                let read = Self.readTable(
                    path, what: "the cost file", code: .costInvalid, CostTable.init(csv:), context)
            else { return .failure }
            costs = read
        }
        var campaignNames: CampaignNames?
        if let path = arguments[names] {
            guard
                let read = Self.readTable(
                    path, what: "the names", code: .namesInvalid, CampaignNames.init(csv:), context)
            else { return .failure }
            campaignNames = read
        }
        var prior: RevenuePrior?
        if let path = arguments[amounts] {
            switch try readPrior(path, versions: versions, context) {
            case .success(let read): prior = read
            case .failure: return .failure
            }
        }
        try GroupingOption.check(groupings, versions: versions)
        let trendDays = try group(&run, by: groupings, arguments)
        let reader = PostbackReader(versions: versions, options: run.readerOptions, output: DiscardedOutput())
        let readAll = run.read(into: reader, context)
        var report = PostbackReport(
            tally: reader.tally!, summary: reader.summary, versions: versions, prior: prior, foldingDay: trendDays)
        if let costs { report = report.withCost(costs) }
        if let campaignNames { report = report.withNames(campaignNames) }
        let format = arguments.value(format)
        let written =
            arguments.has(wide)
            ? writeWide(report, to: arguments[output], context)
            : emit(to: arguments[output], context) { format.write(report, to: $0) }
        if let notOK = report.notOKWarning {
            context.diagnostics([notOK], path: run.inputs.joined(separator: ", "))
        }
        return readAll ? written : .failure
    }

    /// Writes what `render` hands out to the file at `path`, whole once rendered, or else to standard output piece
    /// by piece, as it is rendered.
    static func emit(
        to path: String?, _ context: CommandContext, _ render: (([UInt8]) -> Void) -> Void
    ) -> ExitStatus {
        guard let path else {
            render { context.standardOutput.write($0) }
            return .success
        }
        var bytes: [UInt8] = []
        render { bytes += $0 }
        return context.write(bytes: bytes, to: path)
    }

    /// Sets `run` to count `ok` postbacks by `groupings` and write no rows; returns whether the days received are
    /// counted besides, to fold into a trend: where the inputs have receipt times, the groups are counted per day
    /// too (`PostbackReport.trend`), unless grouped by day already.
    static func group(_ run: inout PostbackRun, by groupings: [PostbackGrouping], _ arguments: ParsedArguments)
        throws(UsageError) -> Bool
    {
        if groupings.contains(.day), !run.readerOptions.withReceiptColumn {
            throw UsageError(
                message:
                    "--by day needs receipt times, which skanc serve keeps beside its segments: read the store's "
                    + "postbacks/*/*.jsonl (each NAME.times beside its NAME.jsonl)")
        }
        let trendDays = run.readerOptions.withReceiptColumn && !groupings.contains(.day)
        run.readerOptions.grouping = PostbackReader.Grouping(
            groupings: groupings + (trendDays ? [.day] : []), zeroIsNull: arguments.has(GroupingOption.zeroIsNull))
        run.readerOptions.writesRows = false
        return trendDays
    }

    /// Where `--wide -o FILE.csv` writes the BigQuery schema: `FILE.schema.json`.
    static func wideSchemaPath(of path: String) -> String {
        (path.hasSuffix(".csv") ? String(path.dropLast(4)) : path) + ".schema.json"
    }

    /// The wide CSV to `path` (and its BigQuery schema beside it), or to standard output.
    static func writeWide(_ report: PostbackReport, to path: String?, _ context: CommandContext) -> ExitStatus {
        guard let path else {
            context.standardOutput.write(report.wideCSVBytes)
            return .success
        }
        let written = context.write(bytes: report.wideCSVBytes, to: path)
        guard written == .success else { return written }
        return context.write(bytes: Array(report.wideBigQuerySchema.utf8), to: wideSchemaPath(of: path))
    }
}
