import SkanCommandLine
import SkanCore
import SkanSchemaTools

/// `skanc lint SCHEMA... [--for meta] [--warnings-as-errors]`: warnings from practice on schemas that check clean.
enum LintCommand {
    static let platform = CommandOption.choice(
        "--for", placeholder: "PLATFORM", values: SchemaLints.Platform.allCases.map(\.rawValue),
        help: "Add a platform's lints: meta.")
    static let warningsAsErrors = CommandOption.flag("--warnings-as-errors", help: "Exit 1 when any lint warns.")

    static let command = Command(
        name: "lint",
        summary: "Warn about schemas that check clean but lose information (practice, privacy, platforms).",
        operands: "SCHEMA...",
        options: [platform, warningsAsErrors, ErrorFormatOption.option],
        discussion: """
            Checks each schema, then warns, with the place and the fix, where it loses information in practice:
              fine-after-window-one   information only the fine value carries changes only after hour 48 (an
                                      'in window' count, a 'within' past 48 hours, a time, days from day 2),
                                      and fine values reach only the first postback
              non-monotone-fine       the fine value can go down as events and time go on (SKAdNetwork 3 and
                                      the runtime's increase-only option keep only increases)
              coarse-inconsistent     a state at least another in every field gets a lower coarse value
              lock-at-start           a lock holds at its window's start with nothing logged
              coarse-blind            no coarse rule or lock of windows 2-3 reads a field
              too-few-revenue-ranges  (--for meta) a revenue field with fewer than four ranges
            docs/LanguageReference.md ("Lints") explains each with an example.
            """,
        exitStatus: """
            0 checked (warnings or not), 1 a schema has errors (or a lint warns, with --warnings-as-errors), 64 \
            bad usage.
            """,
        run: run
    )

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitStatus {
        guard !arguments.positionals.isEmpty else {
            throw UsageError(message: "name the schemas to lint", command: "lint")
        }
        let platform = arguments[platform].flatMap(SchemaLints.Platform.init(rawValue:))
        var status = ExitStatus.success
        for path in arguments.positionals {
            let compiled = SchemaInput.compileAndReport(
                path, warningsAsErrors: arguments.has(warningsAsErrors), style: ErrorFormatOption.style(arguments),
                more: { schema, _ in SchemaLints.lint(schema, for: platform) })
            if compiled.failed { status = .failure }
        }
        return status
    }
}
