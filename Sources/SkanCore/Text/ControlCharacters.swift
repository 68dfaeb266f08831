/// Control characters in text that came from an input (a postback, a schema, an attribution record): C0, DEL
/// and C1. No text output (terminal, CSV, Markdown, HTML) writes one raw, where it could move a terminal's
/// cursor, set its title or hide what follows: each is written as `\u{1B}`, its code point in hex, the one
/// notation every escaper shares. Tab and line breaks are left to each format's own rule.
package enum ControlCharacters {
    /// Whether `scalar` is C0 (U+0000-U+001F), DEL (U+007F) or C1 (U+0080-U+009F).
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// The escape a control character is written as: `\u{1B}`.
    package static func escape(_ scalar: Unicode.Scalar) -> String {
        "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }

    /// `text` with every control character but those in `keeping` escaped.
    package static func escaped(_ text: String, keeping: Set<Unicode.Scalar> = []) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) && !keeping.contains($0) }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar), !keeping.contains(scalar) {
                result.append(contentsOf: escape(scalar).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
