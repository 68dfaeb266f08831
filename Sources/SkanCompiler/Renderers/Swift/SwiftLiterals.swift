/// Text from a schema placed into Swift source: as a string literal, or as a doc comment. Either way it
/// cannot end the literal or comment early, start an interpolation, or add control characters.
enum SwiftLiterals {
    /// A string literal: `"…"` with `\`, `"` and every control character escaped, so that `\(`, `"""` and
    /// newlines in the text stay text.
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if isControl(scalar) {
                    result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// `///` lines at `indent` for a description; each line of the text becomes one comment line.
    static func docComment(_ text: String?, indent: String) -> [String] {
        guard let text, !text.isEmpty else { return [] }
        return commentLines(text).map { $0.isEmpty ? "\(indent)///" : "\(indent)/// \($0)" }
    }

    /// The lines of `text` for use inside a line comment: split at every line break, control characters
    /// spelled out as `\u{…}` (a NUL or a form feed in a comment would make the compiler warn).
    static func commentLines(_ text: String) -> [String] {
        var lines: [String] = []
        var current = ""
        var previous: Unicode.Scalar? = nil
        for scalar in text.unicodeScalars {
            defer { previous = scalar }
            if scalar == "\n" && previous == "\r" { continue }
            if scalar == "\n" || scalar == "\r" || scalar == "\u{2028}" || scalar == "\u{2029}" || scalar == "\u{85}" {
                lines.append(current)
                current = ""
            } else if scalar != "\t" && isControl(scalar) {
                current += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                current.unicodeScalars.append(scalar)
            }
        }
        lines.append(current)
        return lines
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.properties.generalCategory == .format
    }
}
