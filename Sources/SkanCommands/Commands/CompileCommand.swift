import SkanCommandLine
import SkanCore
import SkanSchemaArtifact

/// `skanc compile SCHEMA [-o FILE.json] [--app APP_ID]`: writes the schema's artifact, the compiled model as
/// canonical JSON (docs/RemoteSchemas.md).
enum CompileCommand {
    static let output = OutputOption.named(writing: "the artifact")
    static let app = CommandOption.text(
        "--app", placeholder: "APP_ID", help: "The App Store ID of the app the schema is for, kept in the artifact.")

    static let command = Command(
        name: "compile",
        summary: "Compile a schema into its artifact: the model as canonical JSON, for schemas over the air.",
        operands: "SCHEMA",
        options: [output, app],
        discussion: """
            Checks a schema (a path, or - for standard input) and writes its artifact: the compiled model as
            canonical JSON (sorted keys, no white space, decimals as text), with the schema's name and version,
            the app ID when given, the format version, and the SHA-256 of the schema member. An app's runtime or
            another tool reads it back into the same model; docs/RemoteSchemas.md and
            docs/schema-artifact.schema.json describe it. 'skanc publish' publishes it.
            """,
        exitStatus: "0 written, 1 a schema error or a file that cannot be read or written, 64 bad usage.",
        run: run
    )

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(UsageError) -> ExitStatus {
        let path = try SchemaInput.single(arguments, "to compile")
        if let appID = arguments[app], !AppStoreID.isValid(appID) {
            throw UsageError(message: "--app is the app's App Store ID (digits), not '\(appID)'")
        }
        try context.refuseOutput(
            arguments[output], over: [(path, "the schema itself")], what: "the artifact")
        guard let schema = SchemaInput.compileAndReport(path, context).schema else { return .failure }
        return context.write(
            bytes: SchemaArtifact(schema: schema, appID: arguments[app]).bytes, to: arguments[output])
    }
}
