import SkanCore
package import SkanFiles
import SkanPostbacks

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Everything a run of skanc reads and writes besides the files it names: standard input (what `-` reads),
/// standard output and standard error. The executable runs each command on the process's own; a test runs one
/// in-process on files of its own, so runs side by side share nothing. Every command is handed its context:
/// none writes to the process's descriptors directly.
package struct CommandContext: Sendable {
    /// What `-` reads.
    package let standardInput: Int32
    /// Standard output, in bulk: it keeps the first write error, which `Skanc.run` reports.
    package let standardOutput: FileDescriptorOutput
    /// Standard error, for messages and diagnostics.
    package let standardError: FileDescriptorOutput
    /// Whether standard error is a terminal, where diagnostics show the source line and a caret.
    package let errorIsTerminal: Bool

    /// A context on these descriptors, which stay open; `errorIsTerminal` is asked of the error descriptor.
    package init(standardInput: Int32, standardOutput: Int32, standardError: Int32) {
        self.standardInput = standardInput
        self.standardOutput = FileDescriptorOutput(descriptor: standardOutput)
        self.standardError = FileDescriptorOutput(descriptor: standardError)
        errorIsTerminal = isatty(standardError) == 1
    }

    /// Standard output and error, and what `/dev/stdout`, `/dev/stderr` and `/dev/fd/N` name in this run.
    package var outputs: RunOutputs {
        RunOutputs(standardOutput: standardOutput, standardError: standardError)
    }

    /// The process's own standard input, output and error.
    package static var process: CommandContext {
        CommandContext(standardInput: STDIN_FILENO, standardOutput: STDOUT_FILENO, standardError: STDERR_FILENO)
    }

    /// Writes `text` and `terminator` to standard output.
    package func standard(_ text: String, terminator: String = "\n") {
        // Written as it is when there is no terminator to add: a report runs to megabytes, not worth a copy.
        if terminator.isEmpty {
            standardOutput.write(text.utf8)
        } else {
            standardOutput.write((text + terminator).utf8)
        }
    }

    /// The message for a failed write to standard output, or nil when every write went through. A reader
    /// that went away (`skanc table … | head`) took what it wanted: no message, as a shell pipeline expects.
    var standardOutputFailure: String? {
        guard let failure = standardOutput.failure, failure != EPIPE else { return nil }
        return
            "skanc: error: cannot write to standard output (\(String(cString: strerror(failure)))); nothing after that was written"
    }

    /// Writes `text` to standard error, line by line through `TerminalText`: a path, an option's value or a key
    /// quoted in a message cannot drive the terminal.
    func error(_ text: String, terminator: String = "\n") {
        let visible = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { TerminalText.visible(String($0)) }.joined(separator: "\n")
        standardError.write((visible + terminator).utf8)
    }

    /// Writes `text` to standard error as it is: text escaped already (JSON, a workflow command's data).
    func errorAsIs(_ text: String) {
        standardError.write(text.utf8)
    }

    /// Prints `diagnostics` of the input at `path` (with its text, for excerpts on a terminal) to standard error,
    /// with the one formatter every command uses; with `tally`, a closing count when there is any. Failure when
    /// any is an error.
    /// In `style` (`--error-format`), each diagnostic prints as that form says and no count follows.
    @discardableResult
    func diagnostics(
        _ diagnostics: [Diagnostic], path: String, source: SourceText? = nil, tally: Bool = false,
        style: DiagnosticFormatter.Style = .text
    ) -> ExitStatus {
        let formatter = DiagnosticFormatter(showSourceLine: errorIsTerminal)
        for diagnostic in diagnostics {
            let text = formatter.format(diagnostic, path: path, source: source, style: style)
            // JSON is escaped already, and a workflow command's data through `TerminalText` part by part.
            if style == .text { error(text) } else { errorAsIs(text + "\n") }
        }
        if tally, style == .text, !diagnostics.isEmpty { error(diagnostics.tally) }
        return diagnostics.hasErrors ? .failure : .success
    }
}
