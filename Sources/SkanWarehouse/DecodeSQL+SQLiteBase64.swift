/// Base64url and UTF-8 decoding for SQLite, which has neither, in two recursive passes. Every function call
/// counts: a recursive step costs microseconds, `substr(x, k, 1)` about 0.2 µs, and an expression is evaluated
/// again wherever it is named (SQLite has no variables). The first version, one step per character reading it
/// by position where each use needed it, made 2,726 AdAttributionKit stanzas take 17 s.
///
/// 1. `skanc_base64`: 64 characters a step, each read once. A step cuts the next chunk off the text (a blob,
///    so that reading at a position does not walk the characters before it), reads the code point of each
///    character of the chunk cut by the step before into a column, and turns the code points read by the step
///    before that into 48 bytes with one `char` call, computing each character's value from its column. The
///    bytes are kept as a text of the code points 0-255 (`char(b)`).
/// 2. A payload whose bytes are all below 128 is its own UTF-8 text (nearly every one: JSON of identifiers);
///    only the others go through `skanc_utf8`, a byte a step, assembling code points and marking bytes that are not
///    UTF-8. `skanc_decoded` holds each payload's text, computed once. A payload with a byte 0 has none: it
///    cannot be JSON, and SQLite's functions would read its text only up to that byte.
extension DecodeSQL {
    /// Characters decoded a step: sixteen groups of four (48 bytes), so a 500-character payload takes 10 steps.
    static let base64Chunk = 64

    /// The value 0-63 of a base64url character from its code point (a column, so naming it again is free):
    /// `a`-`z` 26-51, `_` 63, `A`-`Z` 0-25, `0`-`9` 52-61, and `-` 62.
    private static func base64Value(_ codePoint: String) -> String {
        let x = codePoint
        return "(CASE WHEN \(x) >= 97 THEN \(x) - 71 WHEN \(x) = 95 THEN 63 WHEN \(x) >= 65 THEN \(x) - 65 "
            + "WHEN \(x) >= 48 THEN \(x) + 4 ELSE 62 END)"
    }

    static var sqliteBase64Stages: [Stage] {
        let chunk = base64Chunk
        let codePoints = (1...chunk).map { "c\($0)" }
        // Each group of four characters makes three bytes; a last group of three makes two, of two one.
        let bytes = (0..<(chunk / 4)).flatMap { group -> [String] in
            let value = { (index: Int) in base64Value(codePoints[4 * group + index]) }
            let (a, b, c, d) = (value(0), value(1), value(2), value(3))
            return ["(\(a) << 2) | (\(b) >> 4)", "((\(b) & 15) << 4) | (\(c) >> 2)", "((\(c) & 3) << 6) | \(d)"]
        }
        // A byte needs the characters up to its last bit: the k-th byte of a group of four, k + 1 of them.
        let lastChunk = bytes.enumerated().map { index, byte in
            "CASE WHEN size >= \(index / 3 * 4 + index % 3 + 2) THEN char(\(byte)) ELSE '' END"
        }
        // `size` is the length of the chunk whose code points the row holds: -1 before the first, 0 once the text
        // is used up, and then `bytes` is the whole payload.
        let body = """
              SELECT
                line, -1, CAST(substr(payload_base64, 1, \(chunk)) AS BLOB),
                \(codePoints.map { _ in "0" }.joined(separator: ", ")),
                substr(payload_base64, \(chunk + 1)), ''
              FROM skanc_base64url WHERE payload_base64 IS NOT NULL
              UNION ALL
              SELECT
                line, length(chunk), CAST(substr(rest, 1, \(chunk)) AS BLOB),
                \((1...chunk).map { "unicode(substr(chunk, \($0)))" }.joined(separator: ", ")),
                substr(rest, \(chunk + 1)),
                CASE WHEN size = \(chunk) THEN bytes || char(\(bytes.joined(separator: ",\n        ")))
                  WHEN size > 0 THEN bytes
                  || \(lastChunk.joined(separator: "\n      || "))
                  ELSE bytes END
              FROM skanc_base64 WHERE size <> 0
            """
        var decodedBytes = Stage(
            name: "skanc_bytes",
            body: """
                  SELECT line, bytes, length(CAST(bytes AS BLOB)) = length(bytes) AS ascii
                  FROM skanc_base64 WHERE size = 0 AND instr(bytes, char(0)) = 0
                """)
        decodedBytes.materialized = true
        var decoded = Stage(
            name: "skanc_decoded",
            body: """
                  SELECT line, bytes AS decoded FROM skanc_bytes WHERE ascii
                  UNION ALL
                  SELECT line, decoded FROM skanc_utf8 WHERE rest = '' AND bad = 0 AND pending = 0
                """)
        // Computed once, and looked up by line with an index SQLite makes for it.
        decoded.materialized = true
        let columns = (["line", "size", "chunk"] + codePoints + ["rest", "bytes"]).joined(separator: ", ")
        return [
            Stage(name: "skanc_base64(\(columns))", body: body), decodedBytes, utf8Stage, decoded,
        ]
    }

    /// UTF-8 decoding of a text of byte values, a byte a step: the code point being assembled, the continuation
    /// bytes still expected, the text so far, and whether a byte broke the encoding.
    private static var utf8Stage: Stage {
        let byte = "unicode(substr(rest, 1, 1))"
        let lead2 = "\(byte) BETWEEN 194 AND 223"
        let lead3 = "\(byte) BETWEEN 224 AND 239"
        let lead4 = "\(byte) BETWEEN 240 AND 244"
        let continuation = "(\(byte) & 192) = 128"
        let body = """
              SELECT line, bytes, 0, 0, '', 0 FROM skanc_bytes WHERE NOT ascii
              UNION ALL
              SELECT
                line, substr(rest, 2),
                CASE WHEN pending = 0 AND \(lead2) THEN \(byte) & 31
                  WHEN pending = 0 AND \(lead3) THEN \(byte) & 15
                  WHEN pending = 0 AND \(lead4) THEN \(byte) & 7
                  WHEN pending > 0 THEN code_point * 64 + (\(byte) & 63)
                  ELSE 0 END,
                CASE WHEN pending = 0 AND \(lead2) THEN 1
                  WHEN pending = 0 AND \(lead3) THEN 2
                  WHEN pending = 0 AND \(lead4) THEN 3
                  WHEN pending > 0 THEN pending - 1
                  ELSE 0 END,
                CASE WHEN pending = 0 AND \(byte) < 128 THEN decoded || char(\(byte))
                  WHEN pending = 1 AND \(continuation) THEN decoded || char(code_point * 64 + (\(byte) & 63))
                  ELSE decoded END,
                CASE WHEN pending = 0 AND (\(byte) < 128 OR \(lead2) OR \(lead3) OR \(lead4)) THEN 0
                  WHEN pending > 0 AND \(continuation) THEN 0
                  ELSE 1 END
              FROM skanc_utf8 WHERE rest <> '' AND bad = 0
            """
        return Stage(name: "skanc_utf8(line, rest, code_point, pending, decoded, bad)", body: body)
    }
}
