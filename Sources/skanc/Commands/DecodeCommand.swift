import SkanCompiler
import SkanCore

/// `skanc decode SCHEMA[,SCHEMA...] VALUE... [--window N] [--format text|json]`: what each value means, with
/// the live version it belongs to when several are named.
enum DecodeCommand {
    static let command = Command(
        name: "decode",
        summary: "Explain fine or coarse values with the schema's semantics.",
        flags: [],
        options: ["--window": ["1", "2", "3"], "--format": ["text", "json"]],
        help: """
            USAGE: skanc decode SCHEMA[,SCHEMA...] VALUE... [--window 1|2|3] [--format text|json]

            Explains values with the schema's exact semantics. A fine value (0...63) shows each field's case and its
            description, the coarse value and lock in each window, or exactly why it is not valid for the schema
            (out of range, reserved bit, unused bit, code with no case). A coarse value (low, medium, high) shows the
            rule that gives it and the fine values of the states behind it, in window N or in each window.

            Several schemas, separated by commas, are versions live at the same time: a fine value is decoded
            with the one version where it is valid, or reported as valid in several (ambiguous-version) or in
            none (invalid-fine); 'skanc check --live-together' proves versions apart. A coarse value carries
            no version: it is explained with each.

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
        guard let versions = try SchemaInput.compileVersions(arguments.positionals[0], command: "decode") else {
            return .failure
        }
        let windows = arguments.options["--window"].flatMap(Int.init).map { [$0] } ?? Array(Schema.windows)
        guard versions.schemas.count == 1, let schema = versions.schemas.first else {
            return decodeLive(versions, Array(arguments.positionals.dropFirst()), windows, arguments)
        }
        let explanations = arguments.positionals.dropFirst().flatMap {
            ValueExplanation.explain($0, in: schema, windows: windows)
        }
        if arguments.options["--format"] == "json" {
            Output.standard(JSONValue.array(explanations.map { $0.json() }).rendered() + "\n", terminator: "")
        } else {
            Output.standard(explanations.map { $0.text(schema: schema) }.joined(), terminator: "")
        }
        return explanations.allSatisfy(\.decoded) ? .success : .failure
    }

    /// Each value with the live version it belongs to.
    private static func decodeLive(
        _ live: LiveVersions, _ values: [String], _ windows: [Int], _ arguments: ParsedArguments
    ) -> ExitStatus {
        let json = arguments.options["--format"] == "json"
        var items: [JSONValue] = []
        var text = ""
        var decoded = true
        for value in values {
            let newest = live.schemas.last!
            guard let fine = Int(value) else {
                for schema in live.schemas {
                    for explanation in ValueExplanation.explain(value, in: schema, windows: windows) {
                        decoded = decoded && explanation.decoded
                        items.append(explanation.json(schemaVersion: schema.version))
                        text += explanation.text(schema: schema)
                    }
                }
                continue
            }
            switch live.owner(of: fine) {
            case .version(let schema):
                for explanation in ValueExplanation.explain(value, in: schema, windows: windows) {
                    items.append(explanation.json(schemaVersion: schema.version))
                    text += explanation.text(schema: schema)
                }
            case .ambiguous(let versions):
                decoded = false
                let list = versions.map(String.init).joined(separator: ", ")
                items.append(
                    .object([
                        ("value", .integer(fine)), ("status", .string("ambiguous-version")),
                        ("versions", .array(versions.map(JSONValue.integer))),
                    ]))
                text +=
                    "\(fine): ambiguous-version: valid in versions \(list) of \(newest.name); 'skanc check --live-together' shows how to tell them apart\n"
            case .none:
                decoded = false
                let list = live.schemas.map { String($0.version) }.joined(separator: ", ")
                items.append(.object([("value", .integer(fine)), ("status", .string("invalid-fine"))]))
                text += "\(fine): invalid-fine: valid in none of versions \(list) of \(newest.name)\n"
            }
        }
        Output.standard(json ? JSONValue.array(items).rendered() + "\n" : text, terminator: "")
        return decoded ? .success : .failure
    }
}
