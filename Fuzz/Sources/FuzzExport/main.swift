// libFuzzer target: any bytes as a schema for `skanc export` in every format: no crash, no hang and no memory
// blow-up (libFuzzer's -timeout and -rss_limit_mb; ExportWork refuses with `export-limit` rather than growing:
// the seed four-flags-of-ten-ors.skan once took 7.5 GB), and every GA4 export that loses nothing reads back as
// GA4's resource and imports into a schema that compiles.
import FuzzSupport
import SkanCompiler
import SkanCore
import SkanPlatforms

/// One input; a crash, leak or failed check is a finding.
func fuzzExport(_ input: UnsafeRawBufferPointer) -> Int32 {
    guard let schema = SchemaCompiler.compile(String(decoding: input, as: UTF8.self)).schema
    else { return 0 }
    for format in SchemaExport.Format.allCases {
        let export = SchemaExport(schema: schema, format: format, options: .init(appID: "1234567890"))
        guard format == .ga4, export.losses.isEmpty, export.diagnostics(lossy: false).isEmpty else { continue }
        guard let source = try? GA4Schema.read(Array(export.text.utf8)) else {
            fatalError("an exact GA4 export does not read back:\n\(export.text)")
        }
        let imported = GA4Import(source, name: "Again", currency: "USD", file: "fuzz")
        guard imported.diagnostics.isEmpty, imported.imported.compile().schema != nil else {
            fatalError("an exact GA4 export does not import again:\n\(imported.text)")
        }
    }
    return 0
}

runLibFuzzer { data, count in fuzzExport(fuzzInput(data, count)) }
