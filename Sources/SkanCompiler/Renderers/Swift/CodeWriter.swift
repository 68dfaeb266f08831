/// Accumulates lines of source with indentation, so renderers read like the code they write.
struct CodeWriter {
    private(set) var lines: [String] = []
    private var depth = 0

    /// A line at the current indentation; an empty string gives an empty line.
    mutating func line(_ text: String = "") {
        lines.append(text.isEmpty ? "" : String(repeating: "    ", count: depth) + text)
    }

    mutating func lines(_ texts: [String]) {
        for text in texts { line(text) }
    }

    /// `opening`, then `body` indented one level, then `closing`.
    mutating func block(_ opening: String, closing: String = "}", _ body: (inout CodeWriter) -> Void) {
        line(opening)
        depth += 1
        body(&self)
        depth -= 1
        line(closing)
    }

    var indent: String { String(repeating: "    ", count: depth) }

    /// Doc comment lines for `text` at the current indentation.
    mutating func doc(_ text: String?) {
        lines.append(contentsOf: SwiftLiterals.docComment(text, indent: indent))
    }

    var text: String { lines.joined(separator: "\n") + "\n" }
}
