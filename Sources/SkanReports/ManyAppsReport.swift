public import SkanCore
public import SkanPostbacks
import SkanSchema

/// The report of many apps' postbacks (`skanc report --schemas DIR`): one report per app, over the lines its own
/// versions decoded, its groups keyed by `app_id` first; and the lines no app's versions decoded (`unknown-app`,
/// and lines that tell no app), by status. Each app's report is what `--schemas DIR/APP_ID` over its lines gives.
public struct ManyAppsReport: Sendable {
    /// One app's report.
    public struct App: Sendable {
        /// The app's App Store ID.
        public var appID: UInt64
        /// Its report.
        public var report: PostbackReport
    }

    /// The apps, in increasing ID (an app without a line has a report without groups).
    public let apps: [App]
    /// Non-blank lines read, of every app and of none.
    public let lines: Int
    /// The lines of no app's, per status.
    public let withoutApp: [(status: PostbackStatus, rows: Int)]

    /// The report of a reader's run over `catalog` (which routes by app), whose tally groups by `app_id` first;
    /// `foldingDay` as `PostbackReport.init`.
    public init(tally: PostbackTally, summary: PostbackSummary, catalog: SchemaCatalog, foldingDay: Bool = false) {
        precondition(catalog.routesByApp && tally.groupings.first == .appID, "grouped by app first")
        apps = catalog.apps.enumerated().map { index, app in
            var report = PostbackReport(
                tally: tally.groups(whereFirstIs: String(app.appID!)), summary: summary.app(index),
                versions: app.versions, foldingDay: foldingDay)
            report.scope = [GroupValue(column: .appID, text: String(app.appID!), name: PostbackGrouping.appID.rawValue)]
            return App(appID: app.appID!, report: report)
        }
        lines = summary.read
        withoutApp = PostbackStatus.allCases.map { ($0, summary.countWithoutApp(of: $0)) }.filter { $0.1 > 0 }
    }

    /// Lines of no app's.
    public var linesWithoutApp: Int { withoutApp.reduce(0) { $0 + $1.rows } }

    /// The report as Markdown: each app's report in turn, then the lines of no app's.
    public var markdown: String {
        var out = apps.map(\.report.markdown).joined(separator: "\n")
        guard !withoutApp.isEmpty else { return out }
        out += "\n# Lines of no app's schemas\n\n\(linesWithoutApp) of \(lines) lines: no folder of the schemas read "
        out += "is for their app, or they tell no app.\n\n| status | rows |\n|---|---:|\n"
        for (status, rows) in withoutApp { out += "| \(status.code) | \(rows) |\n" }
        return out
    }

    /// The report as one long table (`PostbackReport.csv`'s columns, `app_id` first): each app's rows, its `not_ok`
    /// rows with its `app_id`, then the lines of no app's as `not_ok` rows with none.
    public var csvBytes: [UInt8] {
        var out: [UInt8] = []
        for (index, app) in apps.enumerated() {
            var bytes = app.report.csvBytes
            // Each report starts with the same header line: the first one's is the table's.
            if index > 0, let end = bytes.firstIndex(of: 0x0A) { bytes.removeSubrange(...end) }
            out += bytes
        }
        let keys = (apps.first?.report.csvColumns.count ?? 6) - 5
        for (status, rows) in withoutApp {
            out += Array((String(repeating: ",", count: keys) + ",not_ok,,\(status.code),\(rows)\r\n").utf8)
        }
        return out
    }

    /// The report as JSON: `{"apps": [REPORT, ...], "lines": N, "without_app": {"lines": N, "not_ok": {...}}}`,
    /// each REPORT the JSON of one app's report. Handed to `write` in pieces, each app's as its report writes it.
    public func writeJSON(_ write: ([UInt8]) -> Void) {
        write(Array("{\n  \"apps\": [\n".utf8))
        for (index, app) in apps.enumerated() {
            if index > 0 { write(Array(",\n".utf8)) }
            // Each report ends its object with a line break, which the list's comma follows.
            var last: [UInt8] = []
            app.report.writeJSON { piece in
                if !last.isEmpty { write(last) }
                last = piece
            }
            if last.last == 0x0A { last.removeLast() }
            write(last)
        }
        var tail: [UInt8] = []
        JSONValue.object([
            ("lines", .integer(linesWithoutApp)),
            ("not_ok", .object(withoutApp.map { ($0.status.code, .integer($0.rows)) })),
        ]).render(into: &tail, indent: 2)
        write(Array("\n  ],\n  \"lines\": \(lines),\n  \"without_app\": ".utf8) + tail + Array("\n}\n".utf8))
    }

    /// The report in `format` (one of `formats`), handed to `write` in pieces.
    public func write(_ format: ReportFormat, to write: ([UInt8]) -> Void) {
        switch format {
        case .json: writeJSON(write)
        case .csv: write(csvBytes)
        default:
            precondition(Self.formats.contains(format), "\(format) reports one app")
            write(Array(markdown.utf8))
        }
    }

    /// The formats a report of many apps is written in.
    public static let formats: [ReportFormat] = [.markdown, .json, .csv]

    /// A warning when some lines were not `ok`: per app, and of no app's.
    public var notOKWarning: Diagnostic? {
        let parts =
            apps.compactMap { app -> String? in
                let report = app.report
                guard report.ok < report.lines else { return nil }
                return "app \(app.appID): "
                    + report.notOK.map { "\($0.status.code) \($0.rows)" }.joined(separator: ", ")
            }
            + (withoutApp.isEmpty
                ? [] : ["no app: " + withoutApp.map { "\($0.status.code) \($0.rows)" }.joined(separator: ", ")])
        guard !parts.isEmpty else { return nil }
        let ok = apps.reduce(0) { $0 + $1.report.ok }
        return .warning(
            .rowsNotOK,
            "\(lines - ok) of \(lines) lines were not ok (\(parts.joined(separator: "; "))); each app's report counts "
                + "its own under not_ok: `skanc postbacks` shows each line's status",
            at: nil)
    }
}
