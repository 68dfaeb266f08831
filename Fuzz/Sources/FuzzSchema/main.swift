// libFuzzer target: schema text → diagnostics or a schema, then every stage downstream of a schema, the
// formatter (idempotent, same meaning) and the diff (a schema against itself and its formatted self).
// Any trap, leak or hang is a finding.
import FuzzSupport
import SkanCore
import SkanSchema

@testable import SkanCompiler
@testable import SkanSchemaTools

/// One input; a crash, leak or failed check is a finding.
func fuzzSchema(_ input: UnsafeRawBufferPointer) -> Int32 {
    let bytes = Array(input)
    let result = SchemaCompiler.compile(SourceText(path: "fuzz.skan", bytes: bytes))
    // Every diagnostic formats, with its source line.
    let source = SourceText(path: "fuzz.skan", bytes: bytes)
    for diagnostic in result.diagnostics.prefix(50) {
        _ = DiagnosticFormatter(showSourceLine: true).format(diagnostic, in: source)
    }
    // fmt: formatting twice changes nothing, and the formatted text means the same (the same schema, or
    // the same diagnostic codes).
    if let formatted = SchemaFormatter.format(source).text {
        guard SchemaFormatter.format(formatted) == formatted else { fatalError("fmt is not idempotent") }
        let again = SchemaCompiler.compile(formatted)
        guard (again.schema == nil) == (result.schema == nil),
            again.schema.map { $0.hasSameMeaning(as: result.schema!) } ?? true,
            again.diagnostics.map(\.code.rawValue).sorted() == result.diagnostics.map(\.code.rawValue).sorted()
        else { fatalError("fmt changed the meaning") }
    }
    guard let schema = result.schema else {
        if !result.diagnostics.hasErrors { fatalError("no schema and no error") }
        return 0
    }
    // diff: a schema against itself changes nothing; the version gate agrees.
    let diff = SchemaDiff(old: schema, new: schema)
    guard !diff.changesMeaning, diff.values.isEmpty, diff.renames.isEmpty, diff.layout.isEmpty else {
        fatalError("a schema differs from itself")
    }
    for format in SchemaDiff.Format.allCases { _ = diff.rendered(format) }
    if let location = result.versionLocation {
        guard VersionGate.diagnostics(old: schema, new: schema, versionAt: location).isEmpty else {
            fatalError("the version gate objects to an unchanged schema")
        }
    }
    // The reference semantics agree with themselves on all 64 values.
    for fine in 0...63 {
        if case .success(let state) = schema.decode(fineValue: fine) {
            guard schema.fineValue(of: state) == fine else { fatalError("round trip of \(fine)") }
            // A state alone leaves a coarse value open only where a rule reads events or time; with an activity
            // (the app-set codes, nothing logged) every window has one.
            for window in ConversionWindow.allCases where schema.coarseValue(of: state, window: window) == nil {
                guard schema.coarseRules(window: window).contains(where: \.condition.readsActivity) else {
                    fatalError("coarse gap at \(fine) in window \(window) passed the checker")
                }
            }
            if schema.readsActivity {
                let set = Dictionary(uniqueKeysWithValues: state.codes.enumerated().map { ($0.offset, $0.element) })
                for hour in [0.0, 47.99, 48, 167.99, 168, 839.99] {
                    guard schema.evaluate(Activity(setCodes: set), at: hour).coarseValue != nil else {
                        fatalError("no coarse value at hour \(hour) for \(fine) passed the checker")
                    }
                }
            }
        }
    }
    _ = SwiftGenerator.generate(schema, options: .init(accessLevel: .public, sourceName: "fuzz.skan"))
    let table = DecodingTable(schema: schema)
    for format in TableFormat.allCases { _ = table.render(format, dialect: .bigquery) }
    return 0
}

runLibFuzzer { data, count in fuzzSchema(fuzzInput(data, count)) }
