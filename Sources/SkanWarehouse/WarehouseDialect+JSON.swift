extension WarehouseDialect {
    /// The text parsed as JSON, or NULL when it is not valid JSON.
    func parseJSON(_ text: String) -> String {
        switch self {
        case .duckdb: "CASE WHEN json_valid(\(text)) THEN CAST(\(text) AS JSON) END"
        case .postgres: "skanc_json(\(text))"
        case .sqlite: "CASE WHEN json_valid(\(text)) THEN \(text) END"
        case .spark: "try_parse_json(\(text))"
        }
    }

    /// The path of a top-level member, as the engine's JSON functions take it.
    private func path(_ key: String) -> String {
        self == .spark ? literal("$[\"\(key)\"]") : literal("$.\"\(key)\"")
    }

    /// The engine's own name for the type of member `key` of `document`; NULL when it is absent.
    func memberTypeName(_ document: String, _ key: String) -> String {
        switch self {
        case .duckdb, .sqlite: "json_type(\(document), \(path(key)))"
        case .postgres: "json_typeof(\(document) -> \(literal(key)))"
        case .spark: "schema_of_variant(variant_get(\(document), \(path(key))))"
        }
    }

    /// Member `key` of `document` as text: a string decoded, a number as written (as far as the engine
    /// keeps it), `true` or `false`. In SQLite, a string is still JSON here (`normalizedText` decodes it).
    func memberText(_ document: String, _ key: String) -> String {
        switch self {
        case .duckdb: "json_extract_string(\(document), \(path(key)))"
        case .postgres: "(\(document) ->> \(literal(key)))"
        case .sqlite: "(\(document) -> \(path(key)))"
        case .spark: "try_variant_get(\(document), \(path(key)), 'string')"
        }
    }

    /// The normalized type (`WarehouseDialect.jsonTypes`) from the engine's type name and the member's text.
    func normalizedType(name: String, text: String) -> String {
        let (string, boolean, null) =
            switch self {
            case .duckdb: ("'VARCHAR'", "'BOOLEAN'", "'NULL'")
            case .postgres: ("'string'", "'boolean'", "'null'")
            case .sqlite: ("'text'", "'true', 'false'", "'null'")
            case .spark: ("'STRING'", "'BOOLEAN'", "'VOID'")
            }
        let (object, array) =
            self == .spark
            ? ("\(name) LIKE 'OBJECT%'", "\(name) LIKE 'ARRAY%'")
            : (
                "\(name) IN ('OBJECT', 'object')", "\(name) IN ('ARRAY', 'array')"
            )
        return """
            CASE WHEN \(name) IS NULL THEN NULL WHEN \(name) IN (\(string)) THEN 'string' \
            WHEN \(name) IN (\(boolean)) THEN \(self == .sqlite ? name : text) WHEN \(name) IN (\(null)) THEN 'null' \
            WHEN \(object) THEN 'object' WHEN \(array) THEN 'array' ELSE 'number' END
            """
    }

    /// The member's text once its type is known: SQLite's JSON text of a string is decoded here.
    func normalizedText(name: String, text: String) -> String {
        self == .sqlite ? "CASE WHEN \(name) = 'text' THEN json_extract(\(text), '$') ELSE \(text) END" : text
    }

    /// The middle part of a text of three dot-separated parts.
    func middlePart(_ text: String) -> String {
        switch self {
        case .sqlite:
            let rest = "substr(\(text), instr(\(text), '.') + 1)"
            return "substr(\(rest), 1, instr(\(rest), '.') - 1)"
        default:
            return "split_part(\(text), '.', 2)"
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

    /// What PostgreSQL needs defined before the view: JSON parsing and base64 decoding that give NULL
    /// instead of an error, so that no line can stop the query.
    var preamble: String {
        guard self == .postgres else { return "" }
        return """
            -- Parsing that answers NULL instead of failing the query. The jsonb cast also refuses what text
            -- cannot hold (\\u0000, a lone surrogate), which the json type would only refuse when read.
            CREATE OR REPLACE FUNCTION skanc_json(t text) RETURNS json LANGUAGE plpgsql IMMUTABLE AS $$
            BEGIN
              PERFORM t::jsonb;
              RETURN t::json;
            EXCEPTION WHEN others THEN RETURN NULL;
            END $$;

            CREATE OR REPLACE FUNCTION skanc_base64(t text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
            BEGIN
              RETURN convert_from(decode(t, 'base64'), 'UTF8');
            EXCEPTION WHEN others THEN RETURN NULL;
            END $$;

            -- A JSON number as a double: beyond the double range, infinite (or 0 for a tiny one).
            CREATE OR REPLACE FUNCTION skanc_double(t text) RETURNS double precision LANGUAGE plpgsql IMMUTABLE AS $$
            BEGIN
              RETURN t::double precision;
            EXCEPTION WHEN others THEN
              RETURN CASE WHEN t ~* 'e-' THEN '0' WHEN t LIKE '-%' THEN '-Infinity' ELSE 'Infinity' END::double precision;
            END $$;


            """
    }
}
