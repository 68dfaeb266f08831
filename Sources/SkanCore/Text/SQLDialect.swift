/// What differs between the SQL engines skanc writes for: identifier quoting, string escaping and booleans.
/// The column types of `skanc table --format sql` are added where the table is (SkanSchemaTools).
public enum SQLDialect: String, Sendable, CaseIterable {
    case sqlite, duckdb, postgres, bigquery, snowflake

    /// An identifier, always quoted so that no column can collide with a keyword.
    public func identifier(_ name: String) -> String {
        switch self {
        case .bigquery: "`" + escaped(name, [("\\", "\\\\"), ("`", "\\`")]) + "`"
        default: "\"" + escaped(name, [("\"", "\"\"")]) + "\""
        }
    }

    /// A string literal. BigQuery and Snowflake read backslash escapes inside quotes, so backslashes are
    /// doubled there; NUL, which no engine stores in text, becomes U+FFFD.
    public func string(_ text: String) -> String {
        let clean = escaped(text, [("\u{0}", "\u{FFFD}")])
        switch self {
        case .bigquery:
            return "'" + escaped(clean, [("\\", "\\\\"), ("'", "\\'"), ("\n", "\\n"), ("\r", "\\r")]) + "'"
        case .snowflake:
            return "'" + escaped(clean, [("\\", "\\\\"), ("'", "''"), ("\n", "\\n"), ("\r", "\\r")]) + "'"
        default:
            // Standard SQL strings have no escapes: a line break is spelled as a character code joined in, so
            // that no tool (the sqlite3 shell drops a CR) changes the text on its way in.
            let code = self == .sqlite ? "char" : "chr"
            return "'"
                + escaped(clean, [("'", "''"), ("\r", "' || \(code)(13) || '"), ("\n", "' || \(code)(10) || '")]) + "'"
        }
    }

    /// SQLite has no boolean type: 1 and 0.
    public func boolean(_ value: Bool) -> String {
        self == .sqlite ? (value ? "1" : "0") : (value ? "TRUE" : "FALSE")
    }

    /// On Unicode scalars: a quote followed by a combining mark is one `Character` but still ends a literal.
    private func escaped(_ text: String, _ replacements: [(Unicode.Scalar, String)]) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if let replacement = replacements.first(where: { $0.0 == scalar }) {
                result.append(contentsOf: replacement.1.unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
