import Foundation
@testable import SkanCompiler
import Testing

/// Every input in Fuzz/Regressions/ once made a fuzz target fail; each is replayed through the same checks.
@Suite struct FuzzRegressionTests {
    static func inputs(_ target: String) -> [URL] {
        let directory = Paths.packageRoot.appendingPathComponent("Fuzz/Regressions/\(target)")
        return ((try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? [])
            .filter { !$0.lastPathComponent.hasPrefix(".") }.sorted { $0.path < $1.path }
    }

    @Test(arguments: inputs("schema"))
    func schemaInput(_ url: URL) throws {
        let bytes = try [UInt8](Data(contentsOf: url))
        let result = SchemaCompiler.compile(SourceText(path: url.lastPathComponent, bytes: bytes))
        #expect(result.schema != nil || result.diagnostics.hasErrors)
        if let schema = result.schema {
            for fine in 0...63 {
                if case .success(let state) = schema.decode(fineValue: fine) { #expect(schema.fineValue(of: state) == fine) }
            }
            _ = SwiftGenerator.generate(schema, options: .init(sourceName: "x.skan"))
            _ = DecodingTable(schema: schema).render(.html)
        }
    }

    @Test(arguments: inputs("postbacks"))
    func postbackInput(_ url: URL) throws {
        let bytes = try [UInt8](Data(contentsOf: url))
        let (rows, summary) = readPostbacks(bytes, schema: try shippedSchema("Shop"), chunk: 64)
        #expect(rows.count == summary.read + 1)
    }
}
