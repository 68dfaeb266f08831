import Foundation
import SkanCompiler
import SkanCore
import SkanTestSupport
import Testing

/// Every example in docs/LanguageReference.md: a schema block followed by an output block is compiled, and
/// the diagnostics must read exactly as the block shows them, so the reference cannot drift from the compiler.
@Suite struct LanguageReferenceTests {
    /// (schema, expected output, line of the schema block) for each example.
    static func examples() throws -> [(schema: String, output: String, line: Int)] {
        let text = try String(
            contentsOf: Paths.packageRoot.appendingPathComponent("docs/LanguageReference.md"), encoding: .utf8)
        var blocks: [(text: String, line: Int)] = []
        var current: [String]? = nil
        var start = 0
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if line.hasPrefix("```") {
                if let lines = current {
                    blocks.append((lines.joined(separator: "\n"), start))
                    current = nil
                } else {
                    current = []
                    start = index + 1
                }
            } else {
                current?.append(line)
            }
        }
        return zip(blocks, blocks.dropFirst()).compactMap { schema, output in
            guard schema.text.hasPrefix("schema "), output.text.hasPrefix("example.skan:") else { return nil }
            return (schema.text + "\n", output.text, schema.line)
        }
    }

    @Test func everyExampleReadsAsTheCompilerPrintsIt() throws {
        let examples = try Self.examples()
        #expect(examples.count >= 21)
        for example in examples {
            let source = SourceText(path: "example.skan", text: example.schema)
            let diagnostics = SchemaCompiler.compile(source).diagnostics
            let printed = diagnostics.map { DiagnosticFormatter().format($0, in: source) }.joined(separator: "\n")
            #expect(printed == example.output, "docs/LanguageReference.md:\(example.line)")
        }
    }
}
