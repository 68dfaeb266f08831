import SkanCommandLine
import SkanCore

/// `--error-format text|json|github-actions`, for the commands whose findings teams read in CI: `check`,
/// `lint`, `export`, `import` and `plist check`.
enum ErrorFormatOption {
    static let option = ChoiceOption<DiagnosticFormatter.Style>(
        "--error-format", placeholder: "FORMAT", default: .text,
        help: "How diagnostics print to standard error: text (path:line:column: severity: message [code]), json "
            + "(one object a line: path, line, column, severity, code, message, subject, notes) or github-actions "
            + "(::error file=...,line=...,col=...::, annotations on a pull request's diff).")

    /// The style `arguments` ask for.
    static func style(_ arguments: ParsedArguments) -> DiagnosticFormatter.Style {
        arguments.value(option)
    }
}
