/// A subcommand: its name, the options it takes, its help text and what it does.
struct Command: Sendable {
    var name: String
    /// One line for `skanc --help`.
    var summary: String
    /// Options that take no value, like `--warnings-as-errors`.
    var flags: Set<String>
    /// Options that take a value, like `--format csv`, with the values they accept (empty: any).
    var options: [String: [String]]
    var help: String
    /// What the command does. Stored with an untyped `throws`: a stored function type with a typed error
    /// needs the Swift 6 runtime (macOS 15, iOS 18) to exist at run time; `run(_:)` restores the type.
    var perform: @Sendable (ParsedArguments) throws -> ExitStatus

    init(
        name: String, summary: String, flags: Set<String>, options: [String: [String]], help: String,
        run: @escaping @Sendable (ParsedArguments) throws(UsageError) -> ExitStatus
    ) {
        self.name = name
        self.summary = summary
        self.flags = flags
        self.options = options
        self.help = help
        self.perform = run
    }

    /// Runs the command; every command reports a bad command line as a `UsageError`, and only that.
    func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitStatus {
        do {
            return try perform(arguments)
        } catch let error as UsageError {
            throw error
        } catch {
            throw UsageError(message: "\(error)", command: name)
        }
    }

    static let all: [Command] = [
        CheckCommand.command, GenerateCommand.command, TableCommand.command, DecodeCommand.command,
        SimulateCommand.command, PreviewCommand.command, LintCommand.command, SuggestCommand.command,
        ExportCommand.command,
        ImportCommand.command,
        DiffCommand.command, FmtCommand.command,
        PostbacksCommand.command, ReportCommand.command, SQLCommand.command, AttributionCommand.command,
        PlistCommand.command,
    ]

    static func named(_ name: String) -> Command? {
        all.first { $0.name == name }
    }
}
