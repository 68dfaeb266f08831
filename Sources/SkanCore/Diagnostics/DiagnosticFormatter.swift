/// Prints diagnostics as `path:line:column: severity: message [code]`, the format compilers use, which Xcode
/// and SwiftPM show inline. A diagnostic with a line but no column prints `path:line:`; one without a location
/// prints `path:` and its subject (`path: SKAdNetworkItems[0]: error: ...`). With `showSourceLine`, the
/// offending line follows with a caret under the column.
public struct DiagnosticFormatter: Sendable {
    /// Whether each diagnostic is followed by its source line and a caret, as on a terminal.
    public var showSourceLine: Bool

    /// A formatter; `showSourceLine` adds the source line and a caret.
    public init(showSourceLine: Bool = false) {
        self.showSourceLine = showSourceLine
    }

    /// `path:line:column: severity: message [code]`, then the notes, as compilers print them.
    public func format(_ diagnostic: Diagnostic, in source: SourceText) -> String {
        format(diagnostic, path: source.path, source: source)
    }

    /// The same for an input whose text is not at hand (or has no lines): no excerpts are printed.
    public func format(_ diagnostic: Diagnostic, path: String) -> String {
        format(diagnostic, path: path, source: nil)
    }

    /// Every text that may come from an input (the path, the subject, the message, the notes, the source line)
    /// is printed through `TerminalText`, so no key, name or description can drive the terminal.
    private func format(_ diagnostic: Diagnostic, path: String, source: SourceText?) -> String {
        var place = self.place(path, diagnostic.location)
        if let subject = diagnostic.subject, diagnostic.location == nil {
            place += " \(TerminalText.visible(subject)):"
        }
        var lines = [
            "\(place) \(diagnostic.severity.rawValue): \(TerminalText.visible(diagnostic.message)) "
                + "[\(diagnostic.code.rawValue)]"
        ]
        if let location = diagnostic.location { lines += excerpt(at: location, in: source) }
        for note in diagnostic.notes {
            lines.append("\(self.place(path, note.location)) note: \(TerminalText.visible(note.message))")
            if let location = note.location { lines += excerpt(at: location, in: source) }
        }
        return lines.joined(separator: "\n")
    }

    private func place(_ rawPath: String, _ location: SourceLocation?) -> String {
        let path = TerminalText.visible(rawPath)
        guard let location else { return "\(path):" }
        guard location.column > 0 else { return "\(path):\(location.line):" }
        return "\(path):\(location.line):\(location.column):"
    }

    /// The source line and a caret line; the caret keeps tabs so it lines up under the same character.
    private func excerpt(at location: SourceLocation, in source: SourceText?) -> [String] {
        guard showSourceLine, let source, location.column > 0 else { return [] }
        let line = source.lineText(at: location)
        let prefixBytes = Array(line.utf8.prefix(max(location.column - 1, 0)))
        let prefix = String(decoding: prefixBytes, as: UTF8.self)
        // Tabs are kept so that the caret lines up; every other control character is shown escaped, in the
        // line and in the padding alike.
        let padding = String(visibleKeepingTabs(prefix).map { $0 == "\t" ? "\t" : " " })
        return ["  " + visibleKeepingTabs(line), "  " + padding + "^"]
    }

    private func visibleKeepingTabs(_ text: String) -> String {
        text.split(separator: "\t", omittingEmptySubsequences: false).map { TerminalText.visible(String($0)) }
            .joined(separator: "\t")
    }
}
