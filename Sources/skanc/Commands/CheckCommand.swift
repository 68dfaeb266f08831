import SkanCompiler
import SkanCore
import SkanSchemaTools

/// `skanc check SCHEMA... [--against OLD]`: reports every diagnostic; exit 0 without errors, 1 with any.
enum CheckCommand {
    static let command = Command(
        name: "check",
        summary: "Check schemas and print located diagnostics.",
        flags: ["--warnings-as-errors", "--live-together"],
        options: ["--against": []],
        help: """
            USAGE: skanc check SCHEMA... [--against OLD] [--live-together] [--warnings-as-errors]

            Checks each schema (a path, or - for standard input) and prints its diagnostics to standard error
            as 'path:line:column: severity: message [code]'. On a terminal, the source line follows with a caret.

            With --against, each schema is also checked as the next version of OLD (for CI, with OLD taken from
            the main branch): an error when values change meaning but the version did not go up
            [version-unchanged] or when the version went down [version-decreased]; a warning when the version
            went up but no value changes meaning [version-bump-unneeded]. 'skanc diff OLD SCHEMA' shows the
            changes.

            With --live-together, the schemas are versions whose apps are in use at the same time, so their
            postbacks arrive mixed: each fine value must be valid in at most one of them [version-overlap].
            Reserved bits with a code keep versions apart ('reserved bit 5' in one, 'reserved bit 5 = 1' in the
            next).

            OPTIONS:
              --against OLD          The schema's previous version, to check the version against.
              --live-together        Prove that no fine value is valid in two of the schemas.
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
        if (arguments.positionals + [arguments.options["--against"]].compactMap { $0 }).filter({ $0 == "-" }).count > 1
        {
            throw UsageError(
                message: "standard input (-) can be read once; name files for the others", command: "check")
        }
        let warningsAsErrors = arguments.flags.contains("--warnings-as-errors")
        var old: Schema? = nil
        if let path = arguments.options["--against"] {
            guard let schema = SchemaInput.compileAndReport(path).schema else {
                Output.error("\(path): the schema to check against has errors; fix them or name another")
                return .failure
            }
            old = schema
        }
        var failed = false
        var live: [(name: String, schema: Schema, versionAt: SourceLocation)] = []
        for path in arguments.positionals {
            let outcome = SchemaInput.compileAndReport(path, warningsAsErrors: warningsAsErrors) { schema, version in
                live.append((path, schema, version))
                return old.map { VersionGate.diagnostics(old: $0, new: schema, versionAt: version) } ?? []
            }
            failed = failed || outcome.failed
        }
        if arguments.flags.contains("--live-together"), !failed {
            for (path, diagnostic) in LiveVersions.diagnostics(of: live) {
                Output.diagnostics([diagnostic], path: path, source: try? SchemaInput.read(path).get())
                failed = true
            }
        }
        return failed ? .failure : .success
    }
}
