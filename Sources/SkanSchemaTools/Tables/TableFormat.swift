public import SkanCore

/// The formats `skanc table` writes.
public enum TableFormat: String, Sendable, CaseIterable {
    case text, csv, json, markdown, html, sql

    /// The tables a format writes when none are chosen: CSV holds one table per file (two in one file
    /// would load as rows of the first), the others hold both.
    public var defaultTables: TableSelection { self == .csv ? .fine : .both }

    /// The selections a format can write: JSON and HTML are documents of both tables.
    public var tableSelections: [TableSelection] {
        switch self {
        case .csv: [.fine, .coarse]
        case .json, .html: [.both]
        case .text, .markdown, .sql: TableSelection.allCases
        }
    }
}

/// Which decoding tables to write: the fine table (one row per fine value), the coarse table (one row per
/// window and coarse value), or both.
public enum TableSelection: String, Sendable, CaseIterable {
    case fine, coarse, both

    var includesFine: Bool { self != .coarse }
    var includesCoarse: Bool { self != .fine }
}

extension DecodingTable {
    /// Renders the `tables` `format` writes by default, or those chosen (one of `format.tableSelections`);
    /// `dialect` matters for SQL only.
    public func render(_ format: TableFormat, dialect: SQLDialect = .sqlite, tables: TableSelection? = nil) -> String {
        let tables = tables ?? format.defaultTables
        precondition(format.tableSelections.contains(tables), "\(format.rawValue) cannot hold \(tables.rawValue)")
        switch format {
        case .text: return TextTableRenderer.render(self, tables: tables)
        case .csv: return CSVRenderer.render(self, table: tables)
        case .json: return JSONTableRenderer.render(self)
        case .markdown: return MarkdownRenderer.render(self, tables: tables)
        case .html: return HTMLRenderer.render(self)
        case .sql: return SQLRenderer.render(self, dialect: dialect, tables: tables)
        }
    }
}
