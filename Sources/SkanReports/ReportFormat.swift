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
}
