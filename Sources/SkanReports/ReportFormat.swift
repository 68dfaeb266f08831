/// The formats `skanc report` writes.
public enum ReportFormat: String, CaseIterable, Sendable {
    case markdown, html, json, csv

    /// `report` in this format.
    public func render(_ report: PostbackReport) -> String {
        switch self {
        case .markdown: report.markdown
        case .html: report.html
        case .json: report.json
        case .csv: report.csv
        }
    }

    /// `render(report)` handed to `write` in pieces: JSON group by group, so that it is never held whole.
    public func write(_ report: PostbackReport, to write: ([UInt8]) -> Void) {
        if self == .json { return report.writeJSON(write) }
        write(bytes(report))
    }

    /// `render(report)` as UTF-8; for JSON made without a string (a report can run to tens of megabytes).
    public func bytes(_ report: PostbackReport) -> [UInt8] {
        switch self {
        case .json: report.jsonBytes
        case .csv: report.csvBytes
        default: Array(render(report).utf8)
        }
    }
}
