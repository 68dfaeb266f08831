/// Base64url and UTF-8 decoding for SQLite, which has neither, in two recursive passes. SQLite finds a character
/// by position by walking the text from its start, and a recursive step costs microseconds: the first version, one
/// step per character reading it by position where each use needed it, made 2,726 AdAttributionKit stanzas take
/// 17 s, thirty times as many SKAdNetwork lines.
///
/// 1. `skanc_base64`: 32 characters a step (24 bytes), each step carrying the text still to decode and its next
///    chunk, so every character is read from a short text; the bytes are kept as a text of the code points 0-255
///    (`char(b)`).
/// 2. A payload whose bytes are all below 128 is its own UTF-8 text (nearly every one: JSON of identifiers);
///    only the others go through `skanc_utf8`, a byte a step, assembling code points and marking bytes that are not
///    UTF-8. `skanc_decoded` holds each payload's text, computed once.
extension DecodeSQL {
    static let base64Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

    /// Characters decoded a step: eight groups of four (24 bytes), so a 500-character payload takes 16 steps.
    static let base64Chunk = 32

    static var sqliteBase64Stages: [Stage] {
        let value = { (position: Int) in "(instr('\(base64Alphabet)', substr(chunk, \(position), 1)) - 1)" }
        // Each group of four characters makes three bytes; a last group of three makes two, of two one.
        let groups = (0..<(base64Chunk / 4)).map { group -> String in
            let (a, b, c, d) = (value(4 * group + 1), value(4 * group + 2), value(4 * group + 3), value(4 * group + 4))
            let first = "(\(a) << 2) | (\(b) >> 4)"
            let second = "((\(b) & 15) << 4) | (\(c) >> 2)"
            let third = "((\(c) & 3) << 6) | \(d)"
            let length = "length(chunk)"
            return "CASE WHEN \(length) >= \(4 * group + 4) THEN char(\(first), \(second), \(third)) "
                + "WHEN \(length) = \(4 * group + 3) THEN char(\(first), \(second)) "
                + "WHEN \(length) = \(4 * group + 2) THEN char(\(first)) ELSE '' END"
        }
        let chunk = base64Chunk
        let bytes = """
              SELECT line, substr(payload_base64, \(chunk + 1)), substr(payload_base64, 1, \(chunk)), ''
                FROM skanc_base64url WHERE payload_base64 IS NOT NULL
              UNION ALL
              SELECT
                line, substr(rest, \(chunk + 1)), substr(rest, 1, \(chunk)),
                bytes
                  || \(groups.joined(separator: "\n      || "))
              FROM skanc_base64 WHERE chunk <> ''
            """
        var decodedBytes = Stage(
            name: "skanc_bytes",
            body: """
                  SELECT line, bytes, length(CAST(bytes AS BLOB)) = length(bytes) AS ascii
                  FROM skanc_base64 WHERE chunk = ''
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
        return [
            Stage(name: "skanc_base64(line, rest, chunk, bytes)", body: bytes), decodedBytes, utf8Stage, decoded,
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
