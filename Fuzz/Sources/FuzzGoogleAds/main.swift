// libFuzzer target: any bytes as a Google Ads `CustomerSkAdNetworkConversionValueSchema` for `skanc import
// google-ads`: no crash, no hang; every error is the resource's, at a key path (never at a line of the schema
// text nobody sees); and a resource that imports gives a schema that compiles and lays out as `skanc fmt` writes.
import FuzzSupport
import SkanCompiler
import SkanCore
import SkanPlatforms
import SkanSchemaTools

/// One input; a crash, leak or failed check is a finding.
func fuzzGoogleAds(_ input: UnsafeRawBufferPointer) -> Int32 {
    guard let resource = try? GoogleAdsSchema.read(Array(input)) else { return 0 }
    let imported = GoogleAdsImport(resource, name: "Fuzzed", currency: "USD", file: "fuzz")
    guard !imported.diagnostics.contains(where: { $0.severity == .error }) else { return 0 }
    let compiled = imported.imported.compile()
    guard compiled.errors.allSatisfy({ $0.location == nil && $0.subject != nil }) else {
        fatalError("an import error is not at a key path: \(compiled.errors)")
    }
    if compiled.schema != nil, SchemaFormatter.format(imported.imported.text) == nil {
        fatalError("an imported schema that compiles does not format:\n\(imported.imported.text)")
    }
    return 0
}

runLibFuzzer { data, count in fuzzGoogleAds(fuzzInput(data, count)) }
