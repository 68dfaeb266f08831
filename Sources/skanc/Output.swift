import SkanCore
import SkanFiles
import SkanPostbacks

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writing to standard output and standard error, unbuffered for errors and buffered in bulk for output.
enum Output {
    /// Standard output, for every command: it keeps the first write error, which `Skanc.run` reports.
    static var standardOutput: FileDescriptorOutput { .standardOutput }

    static func standard(_ text: String, terminator: String = "\n") {
        // Written as it is when there is no terminator to add: a report runs to megabytes, not worth a copy.
        if terminator.isEmpty {
            standardOutput.write(text.utf8)
        } else {
            standardOutput.write((text + terminator).utf8)
        }
    }

    /// The message for a failed write to standard output, or nil when every write went through. A reader
    /// that went away (`skanc table … | head`) took what it wanted: no message, as a shell pipeline expects.
    static var standardOutputFailure: String? {
        guard let failure = standardOutput.failure, failure != EPIPE else { return nil }
        return
            "skanc: error: cannot write to standard output (\(String(cString: strerror(failure)))); nothing after that was written"
    }

    /// Writes `text` to standard error, line by line through `TerminalText`: a path, an option's value or a key
    /// quoted in a message cannot drive the terminal.
    static func error(_ text: String, terminator: String = "\n") {
        let visible = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { TerminalText.visible(String($0)) }.joined(separator: "\n")
        write(visible + terminator, to: STDERR_FILENO)
    }

    /// Prints `diagnostics` of the input at `path` (with its text, for excerpts on a terminal) to standard error,
    /// with the one formatter every command uses; with `tally`, a closing count when there is any. Failure when
    /// any is an error.
    /// In `style` (`--error-format`), each diagnostic prints as that form says and no count follows.
    @discardableResult
    static func diagnostics(
        _ diagnostics: [Diagnostic], path: String, source: SourceText? = nil, tally: Bool = false,
        style: DiagnosticFormatter.Style = .text
    ) -> ExitStatus {
        let formatter = DiagnosticFormatter(showSourceLine: errorIsTerminal)
        for diagnostic in diagnostics {
            let text = formatter.format(diagnostic, path: path, source: source, style: style)
            // JSON is escaped already, and a workflow command's data through `TerminalText` part by part.
            if style == .text { error(text) } else { write(text + "\n", to: STDERR_FILENO) }
        }
        if tally, style == .text, !diagnostics.isEmpty { error(diagnostics.tally) }
        return diagnostics.hasErrors ? .failure : .success
    }

    /// Whether standard error is a terminal, where diagnostics show the source line and a caret.
    static var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Writes all of `text`, retrying after interruptions; a failure is not reported (this is for errors).
    static func write(_ text: String, to descriptor: Int32) {
        FileDescriptorOutput(descriptor: descriptor).write(text.utf8)
    }
}
