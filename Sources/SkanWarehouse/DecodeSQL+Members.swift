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
        let base64 =
            "CASE WHEN \(dialect.trimBoth("jws_segment", alphabet)) = '' AND length(jws_segment) % 4 <> 1 THEN jws_segment END"
        var stages = [
            stage("skanc_jws", ["*", "\(segment) AS jws_segment"], from: "skanc_line_keys"),
            stage("skanc_base64url", ["*", "\(base64) AS payload_base64"], from: "skanc_jws"),
        ]
        if dialect == .sqlite {
            stages.append(Self.sqliteBase64)
            // The last step of each line on its own, so the join below can use an index SQLite makes for it.
            var decoded = stage(
                "skanc_decoded", ["line", "decoded"], from: "skanc_base64",
                where: "position = length(encoded) + 1 AND bad = 0 AND pending = 0")
            decoded.materialized = true
            stages.append(decoded)
            stages.append(
                stage(
                    "skanc_payload_text", ["k.*", "d.decoded AS payload_text"],
                    from: "skanc_base64url AS k LEFT JOIN skanc_decoded AS d ON d.line = k.line"))
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
        stages.append(stage("skanc_payload_raw", ["*"] + raw, from: "skanc_payload_json"))
        return stages
    }

    /// Base64url decoding and UTF-8 decoding for SQLite, which has neither: one step per character of the
    /// segment, carrying the bits not yet spent, the code point being assembled and the text so far.
    static var sqliteBase64: Stage {
        let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
        let value = "(instr('\(alphabet)', substr(encoded, position, 1)) - 1)"
        let bits = "(carry * 64 + \(value))"
        // A byte is complete when the carried bits and the six new ones make eight or more.
        let byte = "(\(bits) >> (carried - 2))"
        let complete = "carried >= 2"
        let lead2 = "\(byte) BETWEEN 194 AND 223"
        let lead3 = "\(byte) BETWEEN 224 AND 239"
        let lead4 = "\(byte) BETWEEN 240 AND 244"
        let continuation = "(\(byte) & 192) = 128"
        let body = """
              SELECT line, payload_base64, 1, 0, 0, 0, 0, '', 0 FROM skanc_base64url WHERE payload_base64 IS NOT NULL
              UNION ALL
              SELECT
                line, encoded, position + 1,
                CASE WHEN \(complete) THEN \(bits) & ((1 << (carried - 2)) - 1) ELSE \(bits) END,
                CASE WHEN \(complete) THEN carried - 2 ELSE carried + 6 END,
                CASE WHEN NOT (\(complete)) THEN code_point
                  WHEN pending = 0 AND \(lead2) THEN \(byte) & 31
                  WHEN pending = 0 AND \(lead3) THEN \(byte) & 15
                  WHEN pending = 0 AND \(lead4) THEN \(byte) & 7
                  WHEN pending > 0 THEN code_point * 64 + (\(byte) & 63)
                  ELSE 0 END,
                CASE WHEN NOT (\(complete)) THEN pending
                  WHEN pending = 0 AND \(lead2) THEN 1
                  WHEN pending = 0 AND \(lead3) THEN 2
                  WHEN pending = 0 AND \(lead4) THEN 3
                  WHEN pending > 0 THEN pending - 1
                  ELSE 0 END,
                CASE WHEN NOT (\(complete)) THEN decoded
                  WHEN pending = 0 AND \(byte) < 128 THEN decoded || char(\(byte))
                  WHEN pending = 1 AND \(continuation) THEN decoded || char(code_point * 64 + (\(byte) & 63))
                  ELSE decoded END,
                CASE WHEN NOT (\(complete)) THEN 0
                  WHEN pending = 0 AND (\(byte) < 128 OR \(lead2) OR \(lead3) OR \(lead4)) THEN 0
                  WHEN pending > 0 AND \(continuation) THEN 0
                  ELSE 1 END
              FROM skanc_base64 WHERE position <= length(encoded) AND bad = 0
            """
        return Stage(
            name: "skanc_base64(line, encoded, position, carry, carried, code_point, pending, decoded, bad)", body: body
        )
    }
}
