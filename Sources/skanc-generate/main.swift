import Foundation
import SkanCompiler
import SkanCore

// The build-tool plugin's tool: `skanc-generate SCHEMA OUTPUT SOURCE_NAME` writes the schema's Swift code
// (internal access) to OUTPUT, only when it changes, or prints the schema's diagnostics as
// `path:line:column: error: ...`, which SwiftPM and Xcode show on the schema's line, and exits 1. It links the
// compiler and nothing else, so that an app's first build stays short; `skanc generate` does the same with
// every option.
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: skanc-generate SCHEMA OUTPUT SOURCE_NAME\n".utf8))
    exit(64)
}
let (schemaPath, outputPath, sourceName) = (arguments[1], arguments[2], arguments[3])

func fail(_ diagnostics: [Diagnostic], source: SourceText? = nil, path: String) -> Never {
    let formatter = DiagnosticFormatter()
    let text = diagnostics.map { diagnostic in
        source.map { formatter.format(diagnostic, in: $0) } ?? formatter.format(diagnostic, path: path)
    }
    FileHandle.standardError.write(Data((text.joined(separator: "\n") + "\n").utf8))
    exit(1)
}

guard let data = FileManager.default.contents(atPath: schemaPath) else {
    fail([.error(.fileUnreadable, "cannot read the schema; check the path", at: nil)], path: schemaPath)
}
let source = SourceText(path: schemaPath, bytes: [UInt8](data))
let result = SchemaCompiler.compile(source)
guard let schema = result.schema, !result.diagnostics.hasErrors else {
    fail(result.diagnostics, source: source, path: schemaPath)
}
if !result.diagnostics.isEmpty {
    let formatter = DiagnosticFormatter()
    let text = result.diagnostics.map { formatter.format($0, in: source) }.joined(separator: "\n")
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
let code = Data(SwiftGenerator.generate(schema, options: .init(accessLevel: .internal, sourceName: sourceName)).utf8)
// Unchanged output keeps its date, so the build does not recompile what uses it.
if FileManager.default.contents(atPath: outputPath) != code {
    do {
        try code.write(to: URL(fileURLWithPath: outputPath), options: .atomic)
    } catch {
        fail(
            [.error(.fileUnwritable, "cannot write the generated code (\(error.localizedDescription))", at: nil)],
            path: outputPath)
    }
}
