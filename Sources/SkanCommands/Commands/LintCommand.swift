import SkanCommandLine
import SkanCompiler
import SkanCore
import SkanSchemaTools

/// `skanc lint SCHEMA... [--for meta] [--warnings-as-errors]`: warnings from practice on schemas that check clean.
enum LintCommand {
    static let platform = ChoiceOption<SchemaLints.Platform>(
        "--for", placeholder: "PLATFORM",
        help: "Add a platform's lints: meta.")
    static let warningsAsErrors = CommandOption.flag("--warnings-as-errors", help: "Exit 1 when any lint warns.")

    static let command = Command(
        name: "lint",
        summary: "Warn about schemas that check clean but lose information (practice, privacy, platforms).",
        operands: "SCHEMA...",
        options: [platform, warningsAsErrors, ErrorFormatOption.option],
        discussion:
            "Checks each schema, then warns, with the place and the fix, where it loses information in practice:\n"
            + SchemaLints.Lint.allCases.map { lint in
                let name = lint.rawValue + String(repeating: " ", count: max(24 - lint.rawValue.count, 1))
                return "  \(name)\(lint.platform.map { "(--for \($0.rawValue)) " } ?? "")\(lint.summary)\n"
            }.joined() + "docs/LanguageReference.md (\"Lints\") explains each with an example.",
        exitStatus: """
            0 checked (warnings or not), 1 a schema has errors (or a lint warns, with --warnings-as-errors), 64 \
            bad usage.
            """,
        run: run
    )

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(UsageError) -> ExitStatus {
        guard !arguments.positionals.isEmpty else {
            throw UsageError(message: "name the schemas to lint")
        }
        let platform = arguments[platform]
        var status = ExitStatus.success
        for path in arguments.positionals {
            let compiled = SchemaInput.compileAndReport(
                path, warningsAsErrors: arguments.has(warningsAsErrors), style: ErrorFormatOption.style(arguments),
                context,
                more: { schema, compiled in SchemaLints.lint(schema, for: platform, amounts: compiled.amounts) })
            if compiled.failed { status = .failure }
        }
        return status
    }
}
