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
    var run: @Sendable (ParsedArguments) throws(UsageError) -> ExitStatus

    static let all: [Command] = [
        CheckCommand.command, GenerateCommand.command, TableCommand.command, DecodeCommand.command, PostbacksCommand.command,
    ]

    static func named(_ name: String) -> Command? {
        all.first { $0.name == name }
    }
}
