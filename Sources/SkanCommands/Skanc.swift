import SkanCommandLine
import SkanCore
import SkanFiles
import SkanPostbacks

/// The `skanc` command: dispatches to a subcommand and turns every outcome into an exit status.
package enum Skanc {
    static let version = "0.1.0"

    /// Runs the command line on `context`; a write to standard output that failed makes the run fail, whatever
    /// the command found.
    package static func run(_ arguments: [String], in context: CommandContext) -> ExitStatus {
        let status = dispatch(arguments, context)
        guard context.standardOutput.failure != nil else { return status }
        if let failure = context.standardOutputFailure { context.error(failure) }
        return arguments.first.flatMap(Command.named)?.unwrittenOutputStatus ?? .failure
    }

    private static func dispatch(_ arguments: [String], _ context: CommandContext) -> ExitStatus {
        guard let first = arguments.first else {
            context.error(Help.overview)
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        do throws(UsageError) {
            switch first {
            case "-h", "--help":
                context.standard(Help.overview)
                return .success
            case "--version":
                context.standard("skanc \(version)")
                return .success
            case "help":
                return try help(rest, context)
            default:
                guard let command = Command.named(first) else {
                    let hint = ["-v", "-V", "-version", "version"].contains(first) ? "; did you mean --version?" : ""
                    throw UsageError(message: "unknown command '\(first)'" + hint, command: nil)
                }
                let parsed = try command.signature.parse(rest)
                if parsed.has(.help) {
                    context.standard(command.help)
                    return .success
                }
                return try command.run(parsed, in: context)
            }
        } catch {
            let hint =
                error.command.map { "run 'skanc help \($0)' for its usage" } ?? "run 'skanc --help' for the commands"
            context.error("skanc: error: \(error.message)\n\(hint)")
            return .usage
        }
    }

    private static func help(_ topics: [String], _ context: CommandContext) throws(UsageError) -> ExitStatus {
        guard let topic = topics.first else {
            context.standard(Help.overview)
            return .success
        }
        guard let command = Command.named(topic) else {
            throw UsageError(message: "no help for '\(topic)': it is not a command", command: nil)
        }
        context.standard(command.help)
        return .success
    }
}
