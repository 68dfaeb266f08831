import SkanCommandLine

/// A subcommand: its signature (name, operands, options, help), declared once, and what it does.
struct Command: Sendable {
    var signature: CommandSignature
    /// The status of a run whose standard output could not be written: `diff` says "values change meaning"
    /// with 1, so an output it could not write is 2 there.
    var unwrittenOutputStatus: ExitStatus
    /// What the command does. Stored with an untyped `throws`: a stored function type with a typed error
    /// needs the Swift 6 runtime (macOS 15, iOS 18) to exist at run time; `run(_:)` restores the type.
    private var perform: @Sendable (ParsedArguments, CommandContext) throws -> ExitStatus

    init(
        name: String, summary: String, operands: String, options: [any OptionDeclaration], discussion: String,
        exitStatus: String, unwrittenOutputStatus: ExitStatus = .failure,
        run: @escaping @Sendable (ParsedArguments, CommandContext) throws(UsageError) -> ExitStatus
    ) {
        signature = CommandSignature(
            name: name, summary: summary, operands: operands, options: options, discussion: discussion,
            exitStatus: exitStatus)
        self.unwrittenOutputStatus = unwrittenOutputStatus
        self.perform = run
    }

    var name: String { signature.name }
    var help: String { signature.help(program: "skanc") }

    /// Runs the command on `context`; every command reports a bad command line as a `UsageError`, and only that.
    func run(_ arguments: ParsedArguments, in context: CommandContext) throws(UsageError) -> ExitStatus {
        do {
            return try perform(arguments, context)
        } catch var error as UsageError {
            // A command's errors point at its own help unless they name another.
            error.command = error.command ?? name
            throw error
        } catch {
            throw UsageError(message: "\(error)", command: name)
        }
    }

    static let all: [Command] = [
        CheckCommand.command, GenerateCommand.command, CompileCommand.command, PublishCommand.command,
        TableCommand.command, DecodeCommand.command,
        SimulateCommand.command, PreviewCommand.command, LintCommand.command, SuggestCommand.command,
        ExportCommand.command, ImportCommand.command, DiffCommand.command, FmtCommand.command,
        PostbacksCommand.command, ReportCommand.command, SQLCommand.command, AttributionCommand.command,
        PlistCommand.command, ServeCommand.command, LSPCommand.command,
    ]

    static func named(_ name: String) -> Command? {
        all.first { $0.name == name }
    }
}
