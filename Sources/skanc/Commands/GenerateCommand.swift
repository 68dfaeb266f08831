import SkanCompiler

/// `skanc generate SCHEMA [-o FILE] [--access-level LEVEL]`: writes the schema's Swift encoder and decoder.
enum GenerateCommand {
    static let command = Command(
        name: "generate",
        summary: "Generate the Swift encoder and decoder of a schema.",
        flags: [],
        options: [
            "-o": [], "--output": [], "--access-level": SwiftGenerator.AccessLevel.allCases.map(\.rawValue),
            "--source-name": [],
        ],
        help: """
            USAGE: skanc generate SCHEMA [-o FILE] [--access-level internal|package|public]

            Generates Swift source for a schema (a path, or - for standard input): a value type that encodes a state
            into fine and coarse values, decodes fine values back, and says when to lock a window.

            OPTIONS:
              -o, --output FILE       Write to FILE (only when its content changes) instead of standard output.
              --access-level LEVEL    internal (default), package or public.
              --source-name NAME      The schema name the header shows (default: the path as given, or its file
                                      name when the path is absolute). Build tools pass a relative name here.
              -h, --help              Show this help.

            EXIT STATUS: 0 written, 1 a schema error or a file that cannot be read or written, 64 bad usage.
            """,
        run: run
    )

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitStatus {
        guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
            throw UsageError(
                message: arguments.positionals.isEmpty
                    ? "name the schema to generate from" : "generate takes one schema at a time", command: "generate")
        }
        try CommandFiles.refuseOutput(
            arguments.options["-o"] ?? arguments.options["--output"], over: [(path, "the schema itself")],
            what: "the Swift code", command: "generate")
        guard let schema = SchemaInput.compileAndReport(path).schema else { return .failure }
        let level = arguments.options["--access-level"].flatMap(SwiftGenerator.AccessLevel.init(rawValue:)) ?? .internal
        let sourceName = arguments.options["--source-name"] ?? defaultSourceName(path)
        let code = SwiftGenerator.generate(schema, options: .init(accessLevel: level, sourceName: sourceName))
        return CommandFiles.write(code, to: arguments.options["-o"] ?? arguments.options["--output"])
    }

    /// The path as given when it is relative; the file name when it is absolute (no machine paths in output).
    static func defaultSourceName(_ path: String) -> String {
        if path == "-" { return "<stdin>" }
        return path.hasPrefix("/") ? String(path.split(separator: "/").last ?? "") : path
    }
}
