import SkanCore
import SkanPostbacks
import SkanSchema

/// The engines `skanc sql` writes decoding SQL for: those it is tested on, row for row against
/// `skanc postbacks`. Each reads JSON with its own functions; what they cannot tell apart is listed in
/// docs/Warehouse.md. BigQuery and Snowflake, which cannot be run here, keep the lookup tables of
/// `skanc table --format sql`.
public enum WarehouseDialect: String, Sendable, CaseIterable {
    case duckdb, postgres, sqlite, spark

    /// A JSON value's type, normalized across engines: `string`, `number`, `true`, `false`, `null`,
    /// `object`, `array`, or SQL NULL when the key is absent.
    static let jsonTypes = ["string", "number", "true", "false", "null", "object", "array"]

    var textType: String {
        switch self {
        case .duckdb: "VARCHAR"
        case .postgres, .sqlite: "TEXT"
        case .spark: "STRING"
        }
    }

    var integerType: String { self == .sqlite ? "INTEGER" : "BIGINT" }

    /// The lookup-table dialect with the same quoting rules (`skanc table --format sql`); Spark has none.
    private var tableDialect: SQLDialect? {
        switch self {
        case .duckdb: .duckdb
        case .postgres: .postgres
        case .sqlite: .sqlite
        case .spark: nil
        }
    }

    /// An identifier, quoted.
    func identifier(_ name: String) -> String {
        tableDialect?.identifier(name) ?? "`" + name.replacingAll("`", with: "``") + "`"
    }

    /// A string literal. Spark reads backslash escapes inside quotes, so backslashes are doubled there and line
    /// breaks written as `\r` and `\n`.
    func literal(_ text: String) -> String {
        if let tableDialect { return tableDialect.string(text) }
        let clean = text.replacingAll("\u{0}", with: "\u{FFFD}")
        return "'"
            + clean.replacingAll("\\", with: "\\\\").replacingAll("'", with: "''").replacingAll("\r", with: "\\r")
            .replacingAll("\n", with: "\\n") + "'"
    }

    /// The day `days` after the `YYYY-MM-DD` text `day`, as such a text (NULL where `day` is not a date, but
    /// PostgreSQL refuses one).
    func adding(days: Int, to day: String) -> String {
        switch self {
        case .duckdb: "CAST(TRY_CAST(\(day) AS DATE) + \(days) AS VARCHAR)"
        case .postgres: "CAST(CAST(\(day) AS DATE) + \(days) AS TEXT)"
        case .sqlite: "date(\(day), '\(days >= 0 ? "+" : "")\(days) days')"
        case .spark: "CAST(date_add(CAST(\(day) AS DATE), \(days)) AS STRING)"
        }
    }

    /// A table name, quoted part by part: `analytics.postback_lines` is the table in schema `analytics`.
    func qualifiedIdentifier(_ name: String) -> String {
        name.split(separator: ".", omittingEmptySubsequences: false).map { identifier(String($0)) }
            .joined(separator: ".")
    }

    /// A text of the characters with these code points (tab, carriage return...), without putting them in
    /// the SQL file.
    func characters(_ codes: [Int]) -> String {
        let function = self == .sqlite ? "char" : "chr"
        return codes.map { "\(function)(\($0))" }.joined(separator: " || ")
    }

    /// `expression` with the characters of `set` (an SQL text) removed from its end, or its start.
    func trimEnd(_ expression: String, _ set: String) -> String {
        self == .spark ? "trim(TRAILING \(set) FROM \(expression))" : "rtrim(\(expression), \(set))"
    }

    func trimStart(_ expression: String, _ set: String) -> String {
        self == .spark ? "trim(LEADING \(set) FROM \(expression))" : "ltrim(\(expression), \(set))"
    }

    /// `expression` with the characters of `set` removed from both ends.
    func trimBoth(_ expression: String, _ set: String) -> String {
        switch self {
        case .spark: "trim(BOTH \(set) FROM \(expression))"
        case .postgres: "btrim(\(expression), \(set))"
        default: "trim(\(expression), \(set))"
        }
    }

    /// The length of a text in UTF-8 bytes, as skanc measures lines.
    /// Unix seconds as `skanc postbacks` writes a receipt time, `2026-12-03T13:30:00Z`, in UTC whatever the
    /// session's time zone.
    func utcTimestamp(seconds: String) -> String {
        switch self {
        case .duckdb: "strftime(epoch_ms(\(seconds) * 1000), '%Y-%m-%dT%H:%M:%SZ')"
        case .sqlite: "strftime('%Y-%m-%dT%H:%M:%SZ', \(seconds), 'unixepoch')"
        case .postgres: "to_char(to_timestamp(\(seconds)) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"
        case .spark:
            "date_format(to_utc_timestamp(timestamp_seconds(\(seconds)), current_timezone()), \"yyyy-MM-dd'T'HH:mm:ss'Z'\")"
        }
    }

    /// `received_at` from a receipt-time column, as `skanc postbacks` reads a `.times` line: 1 to 12 ASCII digits
    /// (a carriage return at the end dropped) up to `ReceiptTimes.latest`, else NULL, never a time made up from
    /// `abc`, `1e9` or `-5` (which a plain cast turns into 1970 or 1969).
    func receiptTime(_ column: String) -> String {
        let text = trimEnd("CAST(\(column) AS \(textType))", characters([13]))
        let digits =
            switch self {
            case .sqlite: "\(text) NOT GLOB '*[^0-9]*' AND instr(\(text), char(0)) = 0"
            // Listed, not a range, whose meaning PostgreSQL leaves to the collation.
            case .postgres: "\(text) ~ '^[0123456789]+$'"
            case .duckdb, .spark: "\(trimBoth(text, literal("0123456789"))) = ''"
            }
        let seconds = "CAST(\(text) AS \(integerType))"
        return "CASE WHEN length(\(text)) BETWEEN 1 AND 12 AND \(digits) AND \(seconds) <= \(ReceiptTimes.latest) "
            + "THEN \(utcTimestamp(seconds: seconds)) END"
    }

    func byteLength(_ expression: String) -> String {
        switch self {
        case .duckdb: "strlen(\(expression))"
        case .sqlite: "length(CAST(\(expression) AS BLOB))"
        case .postgres, .spark: "octet_length(\(expression))"
        }
    }

    /// The 1-based position of `needle` (a literal) in `haystack`, 0 when absent.
    func position(_ needle: String, in haystack: String) -> String {
        self == .postgres ? "strpos(\(haystack), \(needle))" : "instr(\(haystack), \(needle))"
    }

    /// `expression` as a double; infinite beyond the double range, never an error.
    func double(_ expression: String) -> String {
        switch self {
        case .duckdb, .spark: "TRY_CAST(\(expression) AS DOUBLE)"
        case .postgres: "skanc_double(\(expression))"
        case .sqlite: "CAST(\(expression) AS REAL)"
        }
    }

    /// `expression` (a whole number that fits) as an integer; NULL rather than an error for a text that is
    /// none (Spark writes an infinite number as `Infinity`).
    func integer(_ expression: String) -> String {
        switch self {
        case .duckdb, .spark: "TRY_CAST(\(expression) AS \(integerType))"
        case .postgres, .sqlite: "CAST(\(expression) AS \(integerType))"
        }
    }
}
