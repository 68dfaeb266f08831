import SkanCommandLine
import SkanCompiler
import SkanCore
import SkanSchema
import SkanSchemaTools

/// `skanc check SCHEMA... [--against OLD]`: reports every diagnostic; exit 0 without errors, 1 with any.
enum CheckCommand {
    static let against = CommandOption.text(
        "--against", placeholder: "OLD", help: "The schema's previous version, to check the version against.")
    static let liveTogether = CommandOption.flag(
        "--live-together", help: "Prove that no fine value is valid in two of the schemas.")
    static let warningsAsErrors = CommandOption.flag(
        "--warnings-as-errors", help: "Treat warnings (unused bits, unreachable rules, bucket gaps) as errors.")

    static let command = Command(
        name: "check",
        summary: "Check schemas and print located diagnostics.",
        operands: "SCHEMA...",
        options: [against, liveTogether, warningsAsErrors, ErrorFormatOption.option],
        discussion: """
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
            """,
        exitStatus: "0 no errors, 1 an error in some schema (or a file that cannot be read), 64 bad usage.",
        run: run
    )

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(UsageError) -> ExitStatus {
        guard !arguments.positionals.isEmpty else {
            throw UsageError(message: "name at least one schema to check")
        }
        if (arguments.positionals + [arguments[against]].compactMap { $0 }).filter({ $0 == "-" }).count > 1 {
            throw UsageError(
                message: "standard input (-) can be read once; name files for the others")
        }
        let warningsAsErrors = arguments.has(warningsAsErrors)
        let style = ErrorFormatOption.style(arguments)
        var old: Schema? = nil
        if let path = arguments[against] {
            let compiled = SchemaInput.compileAndReport(path, style: style, context)
            guard let schema = compiled.schema else {
                context.diagnostics(
                    [VersionGate.againstHasErrors()], path: path == "-" ? "<stdin>" : path, style: style)
                return .failure
            }
            old = schema
        }
        var failed = false
        var live: [(name: String, schema: Schema, versionAt: SourceLocation)] = []
        for path in arguments.positionals {
            let outcome = SchemaInput.compileAndReport(path, warningsAsErrors: warningsAsErrors, style: style, context)
            {
                schema, compiled in
                // Every schema that compiles has a version.
                guard let version = compiled.versionLocation else { return [] }
                live.append((path, schema, version))
                return old.map { VersionGate.diagnostics(old: $0, new: schema, versionAt: version) } ?? []
            }
            failed = failed || outcome.failed
        }
        if arguments.has(liveTogether), !failed {
            for (path, diagnostic) in LiveVersions.diagnostics(of: live) {
                context.diagnostics(
                    [diagnostic], path: path, source: try? SchemaInput.read(path, context).get(), style: style)
                failed = true
            }
        }
        return failed ? .failure : .success
    }
}
