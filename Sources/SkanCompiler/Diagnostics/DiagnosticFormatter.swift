/// Prints diagnostics as `path:line:column: severity: message [code]`, the format compilers use, which Xcode
/// and SwiftPM show inline. With `showSourceLine`, the offending line follows with a caret under the column.
public struct DiagnosticFormatter: Sendable {
    /// Whether each diagnostic is followed by its source line and a caret, as on a terminal.
    public var showSourceLine: Bool

    /// A formatter; `showSourceLine` adds the source line and a caret.
    public init(showSourceLine: Bool = false) {
        self.showSourceLine = showSourceLine
    }

    /// `path:line:column: severity: message [code]`, then the notes, as compilers print them.
    public func format(_ diagnostic: Diagnostic, in source: SourceText) -> String {
        var lines = [
            header(
                source.path, diagnostic.location, diagnostic.severity.rawValue,
                "\(diagnostic.message) [\(diagnostic.code.rawValue)]")
        ]
        if showSourceLine { lines += excerpt(at: diagnostic.location, in: source) }
        for note in diagnostic.notes {
            if let location = note.location {
                lines.append(header(source.path, location, "note", note.message))
                if showSourceLine { lines += excerpt(at: location, in: source) }
            } else {
                lines.append("\(source.path): note: \(note.message)")
            }
        }
        return lines.joined(separator: "\n")
    }

    private func header(_ path: String, _ location: SourceLocation, _ severity: String, _ message: String) -> String {
        "\(path):\(location.line):\(location.column): \(severity): \(message)"
    }

    /// The source line and a caret line; the caret keeps tabs so it lines up under the same character.
    private func excerpt(at location: SourceLocation, in source: SourceText) -> [String] {
        let line = source.lineText(at: location)
        let prefixBytes = Array(line.utf8.prefix(max(location.column - 1, 0)))
        let prefix = String(decoding: prefixBytes, as: UTF8.self)
        let padding = String(prefix.map { $0 == "\t" ? "\t" : " " })
        return ["  " + line, "  " + padding + "^"]
    }
}
