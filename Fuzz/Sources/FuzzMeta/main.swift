// libFuzzer target: any bytes as Meta's SKAdNetwork configuration for `skanc import meta`: no crash, no hang;
// every error is the configuration's, at a key path (never at a line of the schema text nobody sees); and a
// configuration that imports gives a schema that compiles and lays out as `skanc fmt` writes it.
import FuzzSupport
import SkanCompiler
import SkanCore
import SkanPlatforms
import SkanSchemaTools

/// One input; a crash, leak or failed check is a finding.
func fuzzMeta(_ input: UnsafeRawBufferPointer) -> Int32 {
    guard let meta = try? MetaConfiguration.read(Array(input)) else { return 0 }
    let imported = MetaImport(meta, name: "Fuzzed", file: "fuzz")
    guard !imported.diagnostics.contains(where: { $0.severity == .error }) else { return 0 }
    let compiled = imported.imported.compile()
    guard compiled.errors.allSatisfy({ $0.location == nil && $0.subject != nil }) else {
        fatalError("an import error is not at a key path: \(compiled.errors)")
    }
    if compiled.schema != nil, SchemaFormatter.format(imported.text) == nil {
        fatalError("an imported schema that compiles does not format:\n\(imported.text)")
    }
    return 0
}

runLibFuzzer { data, count in fuzzMeta(fuzzInput(data, count)) }
