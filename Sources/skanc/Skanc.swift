import SkanCommandLine
import SkanCore
import SkanFiles
import SkanPostbacks

/// The `skanc` command: dispatches to a subcommand and turns every outcome into an exit status.
enum Skanc {
    static let version = "0.1.0"

    /// Runs the command line; a write to standard output that failed makes the run fail, whatever the command
    /// found.
    static func run(_ arguments: [String]) -> ExitStatus {
        let status = dispatch(arguments)
        guard Output.standardOutput.failure != nil else { return status }
        if let failure = Output.standardOutputFailure { Output.error(failure) }
        return arguments.first.flatMap(Command.named)?.unwrittenOutputStatus ?? .failure
    }

    private static func dispatch(_ arguments: [String]) -> ExitStatus {
        guard let first = arguments.first else {
            Output.error(Help.overview)
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        do throws(UsageError) {
            switch first {
            case "-h", "--help":
                Output.standard(Help.overview)
                return .success
            case "--version":
                Output.standard("skanc \(version)")
                return .success
            case "help":
                return try help(rest)
            default:
                guard let command = Command.named(first) else {
                    let hint = ["-v", "-V", "-version", "version"].contains(first) ? "; did you mean --version?" : ""
                    throw UsageError(message: "unknown command '\(first)'" + hint, command: nil)
                }
                let parsed = try command.signature.parse(rest)
                if parsed.has(.help) {
                    Output.standard(command.help)
                    return .success
                }
                return try command.run(parsed)
            }
        } catch {
            let hint =
                error.command.map { "run 'skanc help \($0)' for its usage" } ?? "run 'skanc --help' for the commands"
            Output.error("skanc: error: \(error.message)\n\(hint)")
            return .usage
        }
    }

    private static func help(_ topics: [String]) throws(UsageError) -> ExitStatus {
        guard let topic = topics.first else {
            Output.standard(Help.overview)
            return .success
        }
        guard let command = Command.named(topic) else {
            throw UsageError(message: "no help for '\(topic)': it is not a command", command: nil)
        }
        Output.standard(command.help)
        return .success
    }
}
