import SkanCommandLine
import SkanCompiler

/// `skanc generate SCHEMA [-o FILE] [--access-level LEVEL]`: writes the schema's Swift encoder and decoder.
enum GenerateCommand {
    static let output = OutputOption.named(writing: "the Swift code")
    static let accessLevel = ChoiceOption<SwiftGenerator.AccessLevel>(
        "--access-level", placeholder: "LEVEL", default: .internal,
        help: "internal, package or public.")
    static let sourceName = CommandOption.text(
        "--source-name", placeholder: "NAME",
        help: "The schema name the header shows (default: the path as given, or its file name when the path is "
            + "absolute). Build tools pass a relative name here.")

    static let command = Command(
        name: "generate",
        summary: "Generate the Swift encoder and decoder of a schema.",
        operands: "SCHEMA",
        options: [output, accessLevel, sourceName],
        discussion: """
            Generates Swift source for a schema (a path, or - for standard input): a value type that encodes a state
            into fine and coarse values, decodes fine values back, and says when to lock a window.
            """,
        exitStatus: "0 written, 1 a schema error or a file that cannot be read or written, 64 bad usage.",
        run: run
    )

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(UsageError) -> ExitStatus {
        let path = try SchemaInput.single(arguments, "to generate from")
        try context.refuseOutput(
            arguments[output], over: [(path, "the schema itself")],
            what: "the Swift code")
        guard let schema = SchemaInput.compileAndReport(path, context).schema else { return .failure }
        let level = arguments.value(accessLevel)
        let sourceName = arguments[sourceName] ?? defaultSourceName(path)
        let code = SwiftGenerator.generate(schema, options: .init(accessLevel: level, sourceName: sourceName))
        return context.write(code, to: arguments[output])
    }

    /// The path as given when it is relative; the file name when it is absolute (no machine paths in output).
    static func defaultSourceName(_ path: String) -> String {
        if path == "-" { return "<stdin>" }
        return path.hasPrefix("/") ? String(path.split(separator: "/").last ?? "") : path
    }
}
