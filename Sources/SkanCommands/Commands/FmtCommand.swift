import Foundation
import SkanCommandLine
import SkanCore
import SkanFiles
import SkanSchemaTools

/// `skanc fmt [--check] [--in-place] SCHEMA...`: the canonical layout.
enum FmtCommand {
    static let check = CommandOption.flag(
        "--check", help: "Write nothing; name each file whose layout would change, and exit 1 if any would.")
    static let inPlace = CommandOption.flag(
        "--in-place", help: "Rewrite the files that would change (not standard input).")

    static let command = Command(
        name: "fmt",
        summary: "Write schemas in the one canonical layout.",
        operands: "SCHEMA...",
        options: [check, inPlace],
        discussion: """
            Writes each schema (a path, or - for standard input) in the canonical layout: a declaration, case or
            coarse rule per line, two spaces per brace level, single spaces between tokens, case codes, coarse
            values, flag names and descriptions aligned, one blank line between declarations. Comments stay
            where they were. Only the layout changes: the schema means exactly what it meant. A schema with
            syntax errors is not formatted (its errors are printed); check errors do not stop formatting.
            Without an option, the formatted schemas go to standard output, one after the other.
            """,
        exitStatus: """
            0 done (with --check: every file already formatted), 1 some file would change \
            (--check) or has syntax errors or cannot be read or written, 64 bad usage.
            """,
        run: run
    )

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(UsageError) -> ExitStatus {
        guard !arguments.positionals.isEmpty else {
            throw UsageError(message: "name at least one schema to format")
        }
        let (check, inPlace) = (arguments.has(check), arguments.has(inPlace))
        guard !(check && inPlace) else {
            throw UsageError(message: "--check and --in-place exclude each other; choose one")
        }
        if inPlace, arguments.positionals.contains("-") {
            throw UsageError(message: "--in-place cannot rewrite standard input; name files")
        }
        var failed = false
        for path in arguments.positionals {
            let source: SourceText
            switch SchemaInput.read(path, context) {
            case .success(let text): source = text
            case .failure(let error):
                context.diagnostics([error.diagnostic], path: error.displayName)
                failed = true
                continue
            }
            let (formatted, diagnostics) = SchemaFormatter.format(source)
            guard let formatted else {
                context.diagnostics(diagnostics + [SchemaFormatter.notFormatted()], path: source.path, source: source)
                failed = true
                continue
            }
            let changed = Array(formatted.utf8) != source.bytes
            if check {
                if changed {
                    context.standard("\(path)\n", terminator: "")
                    failed = true
                }
            } else if inPlace {
                guard changed else { continue }
                do {
                    try FileOutput.writeIfChanged(formatted, to: path)
                } catch {
                    context.diagnostics([error.diagnostic], path: error.path)
                    failed = true
                }
            } else {
                context.standard(formatted, terminator: "")
            }
        }
        return failed ? .failure : .success
    }
}
