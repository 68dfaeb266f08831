import SkanCompiler
import SkanCore
import SkanFiles

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
        of: schemaPath, expecting: "a .skan file", limit: SchemaCompiler.maximumSourceBytes + 1,
        standardInput: STDIN_FILENO)
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
// Unchanged output keeps its date, so the build does not recompile what uses it; a changed one replaces the file
// atomically, with its mode, as every command writes.
do throws(FileOutput.WriteError) {
    try FileOutput.writeIfChanged(bytes: code, to: outputPath)
} catch {
    GeneratorFiles.printError(DiagnosticFormatter().format(error.diagnostic, path: error.path))
    exit(1)
}
