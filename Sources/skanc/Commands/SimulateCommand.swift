import Foundation
import SkanCore
import SkanSchemaTools

/// `skanc simulate SCHEMA JOURNEY [--format text|jsonl]`: the reference semantics over a journey.
enum SimulateCommand {
    static let command = Command(
        name: "simulate",
        summary: "Run a schema over a journey of events and hours, and show what the updater would send.",
        flags: [],
        options: ["--format": ["text", "jsonl"]],
        help: """
            USAGE: skanc simulate SCHEMA JOURNEY [--format text|jsonl]

            Runs the schema's reference semantics over JOURNEY (- for standard input): JSON lines in hour order,
            each one of
              {"hour": 0.1, "event": "sign_up"}
              {"hour": 3.5, "event": "purchase", "value": 4.99}    a value event, with its amount
              {"hour": 5, "set": {"paymentTier": "medium"}}         a field the app sets
              {"hour": 50}                                          the app opens: evaluate only
            (hours since first launch; blank lines and '#' comments are skipped; a '#' comment may end a line).
            For each line it prints what the updater would do: the window (1 until hour 48, 2 until 168, 3 until
            840, none after), the fine value, coarse value and lock, whether it sends (not when the window already
            has these values or is locked), and each field's case. With --format jsonl, one object per line:
              {"line": N, "hour": H, "window": 1|2|3|null, "fine_value": V, "coarse_value": "low|medium|high"|null,
               "lock": bool, "sent": bool, "state": {FIELD: CASE, ...}}

            A line that cannot be used gets an error with its line number and nothing of it is applied:
            journey-json (not a JSON object of hour, event, value and set), journey-hour (hours going back),
            journey-event (an event the schema does not declare), journey-value (a value on a counted event, or
            none on a value event), journey-set (a field that is derived, or a case it does not have).

            OPTIONS:
              --format FORMAT   text (default) or jsonl.
              -h, --help        Show this help.

            EXIT STATUS: 0 every line simulated, 1 a bad line (or a schema error, or an unreadable journey), 64 bad
            usage.
            """,
        run: run
    )

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitStatus {
        guard arguments.positionals.count == 2 else {
            throw UsageError(message: "name a schema and a journey file (or - for standard input)", command: "simulate")
        }
        guard let schema = SchemaInput.compileAndReport(arguments.positionals[0]).schema else { return .failure }
        let path = arguments.positionals[1]
        guard let journey = CommandFiles.read(path, what: "the journey") else { return .failure }
        let simulation = JourneySimulation(schema: schema, journey: journey)
        Output.standard(
            arguments.options["--format"] == "jsonl" ? simulation.jsonLines : simulation.text, terminator: "")
        return Output.diagnostics(simulation.diagnostics, path: path == "-" ? "<stdin>" : path)
    }
}
