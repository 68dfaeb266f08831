import SkanCompiler

/// `skanc decode SCHEMA VALUE... [--window N] [--format text|json]`: what each value means.
enum DecodeCommand {
    static let command = Command(
        name: "decode",
        summary: "Explain fine or coarse values with the schema's semantics.",
        flags: [],
        options: ["--window": ["1", "2", "3"], "--format": ["text", "json"]],
        help: """
            USAGE: skanc decode SCHEMA VALUE... [--window 1|2|3] [--format text|json]

            Explains values with the schema's exact semantics. A fine value (0...63) shows each field's case and its
            description, the coarse value and lock in each window, or exactly why it is not valid for the schema
            (out of range, reserved bit, unused bit, code with no case). A coarse value (low, medium, high) shows the
            rule that gives it and the fine values of the states behind it, in window N or in each window.

            OPTIONS:
              --window N        For coarse values: window 1 (hours 0-48), 2 (48-168) or 3 (168-840); default all.
              --format FORMAT   text (default) or json (an array, one object per value and window).
              -h, --help        Show this help.

            EXIT STATUS: 0 every value decodes, 1 some value does not (or a schema error), 64 bad usage.
            """,
        run: run
    )

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitStatus {
        guard arguments.positionals.count >= 2 else {
            throw UsageError(message: "name a schema and at least one value to decode", command: "decode")
        }
        guard let schema = SchemaInput.compileAndReport(arguments.positionals[0]).schema else { return .failure }
        let windows = arguments.options["--window"].flatMap(Int.init).map { [$0] } ?? Array(Schema.windows)
        let explanations = arguments.positionals.dropFirst().flatMap {
            ValueExplanation.explain($0, in: schema, windows: windows)
        }
        if arguments.options["--format"] == "json" {
            Output.write(JSONValue.array(explanations.map { $0.json() }).rendered() + "\n", to: 1)
        } else {
            Output.write(explanations.map { $0.text(schema: schema) }.joined(), to: 1)
        }
        return explanations.allSatisfy(\.decoded) ? .success : .failure
    }
}
