import SkanPostbacks

extension DecodeSQL {
    /// Every key skanc knows, read from the line: `lt_<key>` its normalized type (NULL when absent) and
    /// `lx_<key>` its text. Unknown keys are not read, as skanc skips them.
    func memberStages() -> [Stage] {
        let document = "CASE WHEN opens_object THEN line_json END"
        let raw = PostbackKey.allCases.flatMap { key -> [String] in
            let (name, column) = (String(describing: key.name), Self.column(key))
            return [
                "\(dialect.memberTypeName("json_object", name)) AS lr_\(column)",
                "\(dialect.memberText("json_object", name)) AS lr_text_\(column)",
            ]
        }
        let normalized = PostbackKey.allCases.flatMap { key -> [String] in
            let column = Self.column(key)
            let type = dialect.normalizedType(name: "lr_\(column)", text: "lr_text_\(column)")
            var text = dialect.normalizedText(name: "lr_\(column)", text: "lr_text_\(column)")
            if Self.exactNumberKeys.contains(key) {
                text = exactNumberText(text, type: "(\(type))", key: key, in: "line_text")
            }
            return ["\(type) AS lt_\(column)", "\(text) AS lx_\(column)"]
        }
        // The line's text goes along only where the numbers are read from it again.
        let lineText = dialect == .duckdb || dialect == .spark ? ["line_text"] : []
        return [
            stage(
                "skanc_line_json",
                ["line", "too_long", "line_json IS NOT NULL AS is_json", "opens_object", "\(document) AS json_object"]
                    + carried + lineText,
                from: "skanc_documents"),
            stage(
                "skanc_line_raw", ["line", "too_long", "is_json", "opens_object"] + carried + lineText + raw,
                from: "skanc_line_json"),
            stage(
                "skanc_line_keys", ["line", "too_long", "is_json", "opens_object"] + carried + normalized,
                from: "skanc_line_raw"),
        ]
    }

    /// The AdAttributionKit payload: the middle of the JWS's three dot-separated parts, base64url, decoded
    /// into a JSON object whose keys are read as `pt_<key>` and `px_<key>`; NULL for a SKAdNetwork line
    /// and for a payload that is not one JSON object (`jws-unreadable`).
    func payloadStages() -> [Stage] {
        let jws = "lx_jws_string"
        let alphabet = "'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'"
        let twoDots = "lt_jws_string = 'string' AND length(\(jws)) - length(replace(\(jws), '.', '')) = 2"
        let middle = dialect.trimEnd(dialect.middlePart(jws), "'='")
        let segment = "CASE WHEN \(twoDots) THEN \(middle) END"
        let isBase64URL =
            dialect == .sqlite
            ? Self.sqliteIsBase64URL("jws_segment") : "\(dialect.trimBoth("jws_segment", alphabet)) = ''"
        let base64 = "CASE WHEN \(isBase64URL) AND length(jws_segment) % 4 <> 1 THEN jws_segment END"
        var stages = [
            stage("skanc_jws", ["*", "\(segment) AS jws_segment"], from: "skanc_line_keys"),
            stage("skanc_base64url", ["*", "\(base64) AS payload_base64"], from: "skanc_jws"),
        ]
        if dialect == .sqlite {
            stages += Self.sqliteBase64Stages
            // A join to the decoded payloads ran as a scan of them for every line (no index: 8,221 stanzas took
            // 55 s); a lookup by line gets the index SQLite makes, and the stage is computed once, so the lookup
            // is not repeated wherever a later stage reads the text.
            var text = stage(
                "skanc_payload_text",
                ["k.*", "(SELECT d.decoded FROM skanc_decoded AS d WHERE d.line = k.line) AS payload_text"],
                from: "skanc_base64url AS k")
            text.materialized = true
            stages.append(text)
        } else {
            let text = dialect.base64Text(dialect.standardBase64("payload_base64"))
            stages.append(stage("skanc_payload_text", ["*", "\(text) AS payload_text"], from: "skanc_base64url"))
        }
        let whitespace = dialect.characters([32, 9, 10, 13])
        let payload =
            "CASE WHEN substr(\(dialect.trimStart("payload_text", whitespace)), 1, 1) = '{' THEN \(dialect.parseJSON("payload_text")) END"
        stages.append(stage("skanc_payload_json", ["*", "\(payload) AS payload_json"], from: "skanc_payload_text"))
        let raw = PostbackKey.allCases.flatMap { key -> [String] in
            let (name, column) = (String(describing: key.name), Self.column(key))
            return [
                "\(dialect.memberTypeName("payload_json", name)) AS pr_\(column)",
                "\(dialect.memberText("payload_json", name)) AS pr_text_\(column)",
            ]
        }
        var payloadRaw = stage("skanc_payload_raw", ["*"] + raw, from: "skanc_payload_json")
        // Later stages name a payload's cells many times, and SQLite would parse the payload for each: computed
        // once, 5,466 stanzas read in 1.65 s instead of 2.5 s.
        payloadRaw.materialized = dialect == .sqlite
        stages.append(payloadRaw)
        return stages
    }
}
