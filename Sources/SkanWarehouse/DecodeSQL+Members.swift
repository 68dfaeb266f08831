import SkanPostbacks

extension DecodeSQL {
    /// Every key skanc knows, read from the line: `lt_<key>` its normalized type (NULL when absent) and
    /// `lx_<key>` its text. Unknown keys are not read, as skanc skips them.
    func memberStages() -> [Stage] {
        let document = "CASE WHEN opens_object THEN line_json END"
        let reads = memberReads(of: "json_object", prefix: "lr")
        let normalized = PostbackKey.allCases.flatMap { key -> [String] in
            let column = Self.column(key)
            let type = dialect.normalizedType(name: "lr_\(column)", text: "lr_text_\(column)")
            var text = dialect.normalizedText(name: "lr_\(column)", text: "lr_text_\(column)")
            if exactNumberKeys.contains(key) {
                text = exactNumberText(text, type: "(\(type))", key: key, in: "line_text")
            }
            return ["\(type) AS lt_\(column)", "\(text) AS lx_\(column)"]
        }
        // The line's text goes along only where the numbers are read from it again.
        let lineText = dialect.rewritesNumbers ? ["line_text"] : []
        let columns = ["line", "too_long", "is_json", "opens_object"] + carried
        var stages = [
            stage(
                "skanc_line_json",
                ["line", "too_long", "line_json IS NOT NULL AS is_json", "opens_object", "\(document) AS json_object"]
                    + carried + lineText,
                from: "skanc_documents")
        ]
        var source = "skanc_line_json"
        if !reads.lists.isEmpty {
            stages.append(stage("skanc_line_lists", columns + lineText + reads.lists, from: source))
            source = "skanc_line_lists"
        }
        return stages + [
            stage("skanc_line_raw", columns + lineText + reads.members, from: source),
            stage("skanc_line_keys", columns + normalized, from: "skanc_line_raw"),
        ]
    }

    /// How the known keys of `document` are read: `<prefix>_<key>`, the engine's name of the member's type, and
    /// `<prefix>_text_<key>`, its text (`members`). Where the engine reads members in lists, `members` take them
    /// from two list columns (`lists`) that a stage before computes, so that the document is parsed once.
    private func memberReads(of document: String, prefix: String) -> (lists: [String], members: [String]) {
        let keys = PostbackKey.allCases
        let names = keys.map { String(describing: $0.name) }
        guard dialect.readsMembersInLists else {
            let members = zip(keys, names).flatMap { key, name in
                [
                    "\(dialect.memberTypeName(document, name)) AS \(prefix)_\(Self.column(key))",
                    "\(dialect.memberText(document, name)) AS \(prefix)_text_\(Self.column(key))",
                ]
            }
            return ([], members)
        }
        let lists = [
            "\(dialect.memberTypeNames(document, names)) AS \(prefix)_types",
            "\(dialect.memberTexts(document, names)) AS \(prefix)_texts",
        ]
        let members = keys.enumerated().flatMap { index, key in
            [
                "\(prefix)_types[\(index + 1)] AS \(prefix)_\(Self.column(key))",
                "\(prefix)_texts[\(index + 1)] AS \(prefix)_text_\(Self.column(key))",
            ]
        }
        return (lists, members)
    }

    /// The AdAttributionKit payload: the middle of the JWS's three dot-separated parts, base64url, decoded
    /// into a JSON object whose keys are read as `pt_<key>` and `px_<key>`; NULL for a SKAdNetwork line
    /// and for a payload that is not one JSON object (`jws-unreadable`).
    func payloadStages() -> [Stage] {
        let jws = "lx_jws_string"
        let twoDots = "lt_jws_string = 'string' AND length(\(jws)) - length(replace(\(jws), '.', '')) = 2"
        let middle = dialect.trimEnd(dialect.middlePart(jws), "'='")
        let segment = "CASE WHEN \(twoDots) THEN \(middle) END"
        let base64 =
            "CASE WHEN \(dialect.isBase64URL("jws_segment")) AND length(jws_segment) % 4 <> 1 THEN jws_segment END"
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
        let reads = memberReads(of: "payload_json", prefix: "pr")
        var source = "skanc_payload_json"
        if !reads.lists.isEmpty {
            stages.append(stage("skanc_payload_lists", ["*"] + reads.lists, from: source))
            source = "skanc_payload_lists"
        }
        var payloadRaw = stage("skanc_payload_raw", ["*"] + reads.members, from: source)
        // Later stages name a payload's cells many times, and SQLite would parse the payload for each: computed
        // once, 5,466 stanzas read in 1.65 s instead of 2.5 s.
        payloadRaw.materialized = dialect == .sqlite
        stages.append(payloadRaw)
        return stages
    }
}
