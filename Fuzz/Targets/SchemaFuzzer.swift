// libFuzzer target: schema text → diagnostics or a schema, then every stage downstream of a schema.
// Built by Fuzz/run.sh together with the SkanCompiler sources; any trap, leak or hang is a finding.

/// libFuzzer's entry point: one input per call; a crash, leak or failed check is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSchema(_ data: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: count))
    let result = SchemaCompiler.compile(SourceText(path: "fuzz.skan", bytes: bytes))
    // Every diagnostic formats, with its source line.
    let source = SourceText(path: "fuzz.skan", bytes: bytes)
    for diagnostic in result.diagnostics.prefix(50) {
        _ = DiagnosticFormatter(showSourceLine: true).format(diagnostic, in: source)
    }
    guard let schema = result.schema else {
        if !result.diagnostics.hasErrors { fatalError("no schema and no error") }
        return 0
    }
    // The reference semantics agree with themselves on all 64 values.
    for fine in 0...63 {
        if case .success(let state) = schema.decode(fineValue: fine) {
            guard schema.fineValue(of: state) == fine else { fatalError("round trip of \(fine)") }
            for window in Schema.windows where schema.coarseValue(of: state, window: window) == nil {
                fatalError("coarse gap at \(fine) in window \(window) passed the checker")
            }
        }
    }
    _ = SwiftGenerator.generate(schema, options: .init(accessLevel: .public, sourceName: "fuzz.skan"))
    let table = DecodingTable(schema: schema)
    for format in TableFormat.allCases { _ = table.render(format, dialect: .bigquery) }
    return 0
}
