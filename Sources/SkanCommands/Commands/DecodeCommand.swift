import SkanCommandLine
import SkanCore
import SkanSchemaTools

/// `skanc decode SCHEMA[,SCHEMA...] VALUE... [--window N] [--format text|json]`: what each value means, with
/// the live version it belongs to when several are named.
enum DecodeCommand {
    static let window = IntegerOption(
        "--window", placeholder: "N", range: 1...3,
        help: "For coarse values: window 1 (hours 0-48), 2 (48-168) or 3 (168-840); default all.")
    /// What `--format` takes.
    enum Format: String, CaseIterable {
        case text, json
    }

    static let format = ChoiceOption<Format>(
        "--format", placeholder: "FORMAT", default: .text,
        help: "text or json (an array, one object per value and window).")

    static let command = Command(
        name: "decode",
        summary: "Explain fine or coarse values with the schema's semantics.",
        operands: "SCHEMA[,SCHEMA...] VALUE...",
        options: [window, format],
        discussion: """
            Explains values with the schema's exact semantics. A fine value (0...63) shows each field's case and its
            description, the coarse value and lock in each window, or exactly why it is not valid for the schema
            (out of range, reserved bit, unused bit, code with no case). A coarse value (low, medium, high) shows the
            rule that gives it and the fine values of the states behind it, in window N or in each window.

            Several schemas, separated by commas, are versions live at the same time: a fine value is decoded
            with the one version where it is valid, or reported as valid in several (ambiguous-version) or in
            none (invalid-fine); 'skanc check --live-together' proves versions apart. A coarse value carries
            no version: it is explained with each.
            """,
        exitStatus: "0 every value decodes, 1 some value does not (or a schema error), 64 bad usage.",
        run: run
    )

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(UsageError) -> ExitStatus {
        guard arguments.positionals.count >= 2 else {
            throw UsageError(message: "name a schema and at least one value to decode")
        }
        guard let versions = try SchemaInput.compileVersions(arguments.positionals[0], context)
        else {
            return .failure
        }
        let windows = arguments[window].flatMap(ConversionWindow.init(number:)).map {
            [$0]
        }
        let explanation = LiveExplanation(
            Array(arguments.positionals.dropFirst()), in: versions, windows: windows ?? ConversionWindow.allCases)
        let written: Format = arguments.value(format)
        context.standard(written == .json ? explanation.json : explanation.text, terminator: "")
        return explanation.decoded ? .success : .failure
    }
}
