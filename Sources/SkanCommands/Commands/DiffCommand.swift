import SkanCommandLine
import SkanSchemaTools

/// `skanc diff OLD NEW [--format text|markdown|json]`: what a schema change does to every value.
enum DiffCommand {
    static let format = ChoiceOption<SchemaDiff.Format>(
        "--format", placeholder: "FORMAT", default: .text,
        help: "text, markdown (for a pull-request comment) or json.")

    static let command = Command(
        name: "diff",
        summary: "Show what a schema change does to every value.",
        operands: "OLD NEW",
        options: [format],
        discussion: """
            Compares two versions of a schema by what their values mean, not by their text: every fine value
            whose decoded state changes, that becomes invalid or becomes valid (as runs: 2...7, 12); the layout
            changes behind them (fields and cases added, removed or moved, buckets, reserved bits); every value
            that keeps its meaning but gets another coarse value or lock in some window; renames (same bits and
            codes, new name) and changed descriptions, which change no value.
            """,
        exitStatus: """
            0 no value changes meaning (renames, descriptions and locks only), 1 some value \
            changes meaning (a fine value, or a coarse value in some window), 2 a schema has errors or cannot be \
            read, 64 bad usage.
            """,
        unwrittenOutputStatus: .unusableInput,
        run: run
    )

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(UsageError) -> ExitStatus {
        guard arguments.positionals.count == 2 else {
            throw UsageError(message: "name the old schema and the new one: skanc diff OLD NEW")
        }
        if arguments.positionals.allSatisfy({ $0 == "-" }) {
            throw UsageError(
                message: "standard input (-) can be read once; name a file for the other schema")
        }
        let old = SchemaInput.compileAndReport(arguments.positionals[0], context).schema
        let new = SchemaInput.compileAndReport(arguments.positionals[1], context).schema
        guard let old, let new else { return .unusableInput }
        let format = arguments.value(format)
        let diff = SchemaDiff(old: old, new: new)
        context.standard(diff.rendered(format), terminator: "")
        return diff.changesMeaning ? .failure : .success
    }
}
