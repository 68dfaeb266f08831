/// The forms diagnostics print in besides compiler text: JSON lines for tools, and GitHub Actions workflow
/// commands, which annotate the lines of a pull request's diff (buf's `--error-format` is the model).
extension DiagnosticFormatter {
    /// How diagnostics are printed: `--error-format` takes these names.
    public enum Style: String, CaseIterable, Sendable {
        /// `path:line:column: severity: message [code]`, as compilers print.
        case text
        /// One JSON object a line: path, line, column, severity, code, message, subject and notes.
        case json
        /// `::error file=…,line=…,col=…,title=…::message`, the workflow commands GitHub Actions reads.
        case githubActions = "github-actions"
    }

    /// `diagnostic` in `style`; text as `format(_:in:)` prints it, with the source line when the formatter
    /// shows one.
    public func format(_ diagnostic: Diagnostic, path: String, source: SourceText?, style: Style) -> String {
        switch style {
        case .text: source.map { format(diagnostic, in: $0) } ?? format(diagnostic, path: path)
        case .json: Self.json(diagnostic, path: path)
        case .githubActions: Self.githubActions(diagnostic, path: path)
        }
    }

    /// `{"path":"S.skan","line":3,"column":7,"severity":"error","code":"name","message":"…","notes":[…]}`;
    /// `line` and `column` are null for a diagnostic of a whole file, `subject` (a key path) is there when set.
    static func json(_ diagnostic: Diagnostic, path: String) -> String {
        var members = [
            "\"path\":" + JSONString.quoted(path),
            "\"line\":" + (diagnostic.location.map { String($0.line) } ?? "null"),
            "\"column\":" + (diagnostic.location.flatMap { $0.column > 0 ? String($0.column) : nil } ?? "null"),
            "\"severity\":" + JSONString.quoted(diagnostic.severity.rawValue),
            "\"code\":" + JSONString.quoted(diagnostic.code.rawValue),
            "\"message\":" + JSONString.quoted(diagnostic.message),
        ]
        if let subject = diagnostic.subject { members.append("\"subject\":" + JSONString.quoted(subject)) }
        let notes = diagnostic.notes.map { note in
            "{\"line\":" + (note.location.map { String($0.line) } ?? "null") + ",\"column\":"
                + (note.location.flatMap { $0.column > 0 ? String($0.column) : nil } ?? "null") + ",\"message\":"
                + JSONString.quoted(note.message) + "}"
        }
        members.append("\"notes\":[" + notes.joined(separator: ",") + "]")
        return "{" + members.joined(separator: ",") + "}"
    }

    /// A workflow command: `error`, `warning` or `notice`, the file, line and column as properties, the code as
    /// the title, and the message with its notes (each on a line of its own) as the data. GitHub's escaping:
    /// `%`, CR and LF in both; `:` and `,` too in properties.
    static func githubActions(_ diagnostic: Diagnostic, path: String) -> String {
        let command =
            switch diagnostic.severity {
            case .error: "error"
            case .warning: "warning"
            case .note: "notice"
            }
        // Text from the input goes through `TerminalText` as in compiler text: a log shows no escape sequence.
        var properties = ["file=" + escapedProperty(TerminalText.visible(path))]
        if let location = diagnostic.location {
            properties.append("line=\(location.line)")
            if location.column > 0 { properties.append("col=\(location.column)") }
        }
        properties.append("title=" + escapedProperty(diagnostic.code.rawValue))
        var message = TerminalText.visible(diagnostic.message)
        if let subject = diagnostic.subject, diagnostic.location == nil {
            message = TerminalText.visible(subject) + ": " + message
        }
        for note in diagnostic.notes {
            message += "\n" + (note.location.map { "line \($0.line): " } ?? "") + TerminalText.visible(note.message)
        }
        return "::\(command) " + properties.joined(separator: ",") + "::" + escapedData(message)
    }

    static func escapedData(_ text: String) -> String {
        var result = ""
        for character in text.unicodeScalars {
            switch character {
            case "%": result += "%25"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    static func escapedProperty(_ text: String) -> String {
        var result = ""
        for character in escapedData(text).unicodeScalars {
            switch character {
            case ":": result += "%3A"
            case ",": result += "%2C"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }
}
