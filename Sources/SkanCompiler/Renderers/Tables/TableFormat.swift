/// The formats `skanc table` writes.
public enum TableFormat: String, Sendable, CaseIterable {
    case text, csv, json, markdown, html, sql
}

extension DecodingTable {
    /// Renders both tables in `format`; `dialect` matters for SQL only.
    public func render(_ format: TableFormat, dialect: SQLDialect = .sqlite) -> String {
        switch format {
        case .text: TextTableRenderer.render(self)
        case .csv: CSVRenderer.render(self)
        case .json: JSONTableRenderer.render(self)
        case .markdown: MarkdownRenderer.render(self)
        case .html: HTMLRenderer.render(self)
        case .sql: SQLRenderer.render(self, dialect: dialect)
        }
    }
}
