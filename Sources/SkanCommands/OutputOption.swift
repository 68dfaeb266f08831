import SkanCommandLine

/// `-o, --output FILE`, one option with one behaviour in every command that writes a file: given twice (by
/// either spelling) is bad usage, and it never names a file the command reads.
enum OutputOption {
    /// The option, with the help line of a command that writes `what` ("the report").
    static func named(writing what: String, onlyWhenChanged: Bool = true) -> CommandOption {
        .text(
            "-o", "--output", placeholder: "FILE",
            help: "Write \(what) to FILE" + (onlyWhenChanged ? " (only when its content changes)" : "")
                + " instead of standard output.")
    }

}
