import Foundation
import SkanCompiler
import SkanCore
import SkanTestSupport
import Testing

/// Every example in docs/LanguageReference.md: a schema block followed by an output block is compiled, and
/// the diagnostics must read exactly as the block shows them, so the reference cannot drift from the compiler.
@Suite struct LanguageReferenceTests {
    static func examples() throws -> [(schema: String, output: String, line: Int)] {
        try LanguageReferenceExamples.all()
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
