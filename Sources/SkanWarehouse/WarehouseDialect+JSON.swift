extension WarehouseDialect {
    /// The text parsed as JSON, or NULL when it is not valid JSON.
    func parseJSON(_ text: String) -> String {
        switch self {
        case .duckdb: "CASE WHEN json_valid(\(text)) THEN CAST(\(text) AS JSON) END"
        case .postgres: "skanc_jsonb(\(text))"
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
        case .postgres: "jsonb_typeof(\(document) -> \(literal(key)))"
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

    /// Whether the engine reads many members of a document in one call. DuckDB takes a list of paths and
    /// parses the document once for all of them, where a call per member parsed it twice per key: 8,221
    /// AdAttributionKit stanzas' lines read in 0.30 s that way, in 0.03 s with lists.
    var readsMembersInLists: Bool { self == .duckdb }

    /// The engine's type names of members `keys` of `document`, a list in the order of `keys` (DuckDB).
    func memberTypeNames(_ document: String, _ keys: [String]) -> String {
        "json_type(\(document), [\(keys.map(path).joined(separator: ", "))])"
    }

    /// The texts of members `keys` of `document`, each as `memberText` gives it, a list (DuckDB).
    func memberTexts(_ document: String, _ keys: [String]) -> String {
        "json_extract_string(\(document), [\(keys.map(path).joined(separator: ", "))])"
    }

    /// Whether the engine's JSON functions give a number's text other than as sent: DuckDB and Spark print
    /// `1e-400` as `0.0`, and PostgreSQL's jsonb holds numbers as numeric (`2.0e1` is `20.0`). Their views read
    /// the numbers that decide a check from the raw JSON text again (`DecodeSQL.exactNumberText`).
    var rewritesNumbers: Bool { self != .sqlite }

    /// The number written after the first `"key":` in `text`, a JSON text; NULL or empty where none is.
    /// PostgreSQL's regular expressions look for a leading literal slowly (0.45 s for 8,221 lines' six
    /// numbers), so there the pattern is anchored where `strpos` finds the key.
    func numberToken(after quotedKey: String, in text: String) -> String {
        let pattern = #"\s*:\s*(-?[0-9][0-9.eE+-]*)"#
        return self == .postgres
            ? "substring(substr(\(text), strpos(\(text), \(literal(quotedKey)))) from \(literal("^" + quotedKey + pattern)))"
            : "regexp_extract(\(text), \(literal(quotedKey + pattern)), 1)"
    }

    /// Whether two JSON number tokens are the same number: as doubles where the engine casts without failing,
    /// as numeric in PostgreSQL, which can take every number of a document its jsonb has read.
    func sameNumber(_ token: String, _ other: String) -> String {
        self == .postgres
            ? "CAST(\(token) AS numeric) = CAST(\(other) AS numeric)" : "\(double(token)) = \(double(other))"
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

    /// What PostgreSQL needs defined before the view: JSON parsing and base64 decoding that give NULL
    /// instead of an error, so that no line can stop the query.
    var preamble: String {
        guard self == .postgres else { return "" }
        return """
            -- Parsing that answers NULL instead of failing the query. jsonb is parsed once (the json type's
            -- operators parse the text on every call) and refuses what text cannot hold (\\u0000, a lone surrogate).
            CREATE OR REPLACE FUNCTION skanc_jsonb(t text) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
            BEGIN
              RETURN t::jsonb;
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
