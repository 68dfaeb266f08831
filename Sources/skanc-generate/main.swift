import SkanCommandLine
import SkanCompiler
import SkanCore

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// The build-tool plugin's tool: `skanc-generate SCHEMA OUTPUT SOURCE_NAME` writes the schema's Swift code
// (internal access) to OUTPUT, only when it changes, or prints the schema's diagnostics as
// `path:line:column: error: ...`, which SwiftPM and Xcode show on the schema's line, and exits 1. It links the
// compiler and the C library and nothing else (not even Foundation, whose import alone takes seconds to
// compile), so that an app's first build stays short; `skanc generate` does the same with every option.
let arguments = CommandLine.arguments
guard arguments.count == 4 else {
    GeneratorFiles.printError("usage: skanc-generate SCHEMA OUTPUT SOURCE_NAME")
    exit(64)
}
let (schemaPath, outputPath, sourceName) = (arguments[1], arguments[2], arguments[3])

let bytes: [UInt8]
do {
    bytes = try InputFile.contents(
        of: schemaPath, expecting: "a .skan file", limit: SchemaCompiler.maximumSourceBytes + 1)
} catch {
    GeneratorFiles.printError(DiagnosticFormatter().format(error.diagnostic, path: error.displayName))
    exit(1)
}
let source = SourceText(path: schemaPath, bytes: bytes)
let result = SchemaCompiler.compile(source)
let formatter = DiagnosticFormatter()
for diagnostic in result.diagnostics { GeneratorFiles.printError(formatter.format(diagnostic, in: source)) }
guard let schema = result.schema, !result.diagnostics.hasErrors else { exit(1) }
let code = Array(SwiftGenerator.generate(schema, options: .init(accessLevel: .internal, sourceName: sourceName)).utf8)
// Unchanged output keeps its date, so the build does not recompile what uses it.
if (try? InputFile.contents(of: outputPath, expecting: "a Swift file", limit: code.count + 1)) != code {
    if let failure = GeneratorFiles.replace(outputPath, with: code) {
        let diagnostic = Diagnostic.error(.fileUnwritable, "cannot write the generated code (\(failure))", at: nil)
        GeneratorFiles.printError(DiagnosticFormatter().format(diagnostic, path: outputPath))
        exit(1)
    }
}
