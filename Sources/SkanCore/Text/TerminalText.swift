/// Text from a schema, a postback or a property list, made safe to print on a terminal: control characters
/// (C0, DEL, C1) and the bidirectional overrides are shown as escapes (`\u{1B}`), so a description cannot move
/// the cursor, set the window title, or reorder what follows it.
package enum TerminalText {
    /// `text` with control characters escaped. With `oneLine`, line breaks and tabs become spaces (for
    /// aligned tables and one-line notes); otherwise they are shown as `\r`, `\n`, `\t`.
    package static func visible(_ text: String, oneLine: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = String.UnicodeScalarView()
        var previous: Unicode.Scalar? = nil
        for scalar in text.unicodeScalars {
            defer { previous = scalar }
            guard needsEscape(scalar) else {
                result.append(scalar)
                continue
            }
            if oneLine, lineBreaks.contains(scalar) {
                if !(scalar == "\n" && previous == "\r") { result.append(" ") }  // CR LF is one break
                continue
            }
            switch scalar {
            case "\r": result.append(contentsOf: "\\r".unicodeScalars)
            case "\n": result.append(contentsOf: "\\n".unicodeScalars)
            case "\t": result.append(contentsOf: "\\t".unicodeScalars)
            default: result.append(contentsOf: ControlCharacters.escape(scalar).unicodeScalars)
            }
        }
        return String(result)
    }

    /// What a one-line text turns into spaces.
    private static let lineBreaks: Set<Unicode.Scalar> = ["\r", "\n", "\t", "\u{0B}", "\u{0C}", "\u{85}"]

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
            || (0x2066...0x2069).contains(scalar.value)
    }
}
