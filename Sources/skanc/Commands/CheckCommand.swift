/// `skanc check SCHEMA...`: reports every diagnostic; exit 0 without errors, 1 with any.
enum CheckCommand {
    static let command = Command(
        name: "check",
        summary: "Check schemas and print located diagnostics.",
        flags: ["--warnings-as-errors"],
        options: [:],
        help: """
            USAGE: skanc check SCHEMA... [--warnings-as-errors]

            Checks each schema (a path, or - for standard input) and prints its diagnostics to standard error
            as 'path:line:column: severity: message [code]'. On a terminal, the source line follows with a caret.

            OPTIONS:
              --warnings-as-errors   Treat warnings (unused bits, unreachable rules, bucket gaps) as errors.
              -h, --help             Show this help.

            EXIT STATUS: 0 no errors, 1 an error in some schema (or a file that cannot be read), 64 bad usage.
            """,
        run: run
    )

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitStatus {
        guard !arguments.positionals.isEmpty else {
            throw UsageError(message: "name at least one schema to check", command: "check")
        }
        var failed = false
        for path in arguments.positionals {
            let outcome = SchemaInput.compileAndReport(
                path, warningsAsErrors: arguments.flags.contains("--warnings-as-errors"))
            failed = failed || outcome.failed
        }
        return failed ? .failure : .success
    }
}
