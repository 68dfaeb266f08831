/// Base64url in SQL: which texts are base64url, and their decoded text where the engine has a base64 function
/// (SQLite has none: `DecodeSQL.sqliteBase64Stages` decodes its payloads).
extension WarehouseDialect {
    /// The base64url alphabet (RFC 4648, section 5), in the order of the characters' values.
    static let base64URLAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

    /// Whether `text` holds only characters of the alphabet, checked the way each engine does fastest, on
    /// 8,221 payloads of about 450 characters:
    /// - SQLite matches a `GLOB` class in C (0.13 s for 5,466 payloads, where `trim` with the alphabet took
    ///   0.22 s); its pattern stops reading at a U+0000, so that is refused apart.
    /// - PostgreSQL's `btrim` with a set of 64 characters took 0.43 s; a regular expression of the same set
    ///   (listed, not as ranges, whose meaning PostgreSQL leaves to the collation), compiled once, 0.03 s.
    /// - DuckDB and Spark trim the alphabet off and look for nothing left.
    func isBase64URL(_ text: String) -> String {
        let alphabet = Self.base64URLAlphabet
        switch self {
        case .sqlite:
            return "\(text) NOT GLOB '*[^A-Za-z0-9_-]*' AND instr(\(text), char(0)) = 0"
        case .postgres:
            // `-` last in the brackets, where it is itself; `$` is the end of the text (no newline mode).
            return "\(text) ~ '^[\(alphabet.filter { $0 != "-" })-]*$'"
        case .duckdb, .spark:
            return "\(trimBoth(text, literal(alphabet))) = ''"
        }
    }

    /// Standard base64 (`+`, `/`, padded) of a base64url text without padding, decoded as UTF-8 text; NULL
    /// when the bytes are not base64 or not UTF-8. SQLite has no base64 function: its payloads are decoded
    /// by a recursive query (`DecodeSQL.sqliteBase64`), and this is not used.
    func base64Text(_ standard: String) -> String {
        switch self {
        case .duckdb: "TRY(decode(from_base64(\(standard))))"
        case .postgres: "skanc_base64(\(standard))"
        case .sqlite: "NULL"
        case .spark:
            // A byte 0 cannot be in JSON, but Spark's parser stops reading there and takes what came before.
            "CASE WHEN is_valid_utf8(CAST(try_to_binary(\(standard), 'base64') AS STRING)) "
                + "AND instr(CAST(try_to_binary(\(standard), 'base64') AS STRING), chr(0)) = 0 "
                + "THEN CAST(try_to_binary(\(standard), 'base64') AS STRING) END"
        }
    }

    /// `text` with `-` and `_` replaced by `+` and `/`, padded with `=` to a multiple of four.
    func standardBase64(_ text: String) -> String {
        let padding = "(4 - length(\(text)) % 4) % 4"
        switch self {
        case .sqlite:
            return "replace(replace(\(text), '-', '+'), '_', '/') || substr('===', 1, \(padding))"
        default:
            return "translate(\(text), '-_', '+/') || repeat('=', \(padding))"
        }
    }
}
