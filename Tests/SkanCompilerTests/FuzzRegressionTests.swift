import Foundation
import SkanCore
import SkanSchema
import SkanTestSupport
import Testing

@testable import SkanCompiler

/// Every schema input in Fuzz/Regressions/schema, replayed through the fuzz target's checks.
@Suite struct FuzzRegressionTests {
    @Test func schemaInputsStillPass() throws {
        let inputs = try Paths.regressionInputs("schema")
        for url in inputs {
            let bytes = try [UInt8](Data(contentsOf: url))
            let result = SchemaCompiler.compile(SourceText(path: url.lastPathComponent, bytes: bytes))
            #expect(result.schema != nil || result.diagnostics.hasErrors, "\(url.lastPathComponent)")
            if let schema = result.schema {
                for fine in 0...63 {
                    if case .success(let state) = schema.decode(fineValue: fine) {
                        #expect(schema.fineValue(of: state) == fine)
                        // As the fuzz target checks: a coarse value left open turns on events or time.
                        for window in ConversionWindow.allCases
                        where schema.coarseValue(of: state, window: window) == nil {
                            #expect(schema.coarseRules(window: window).contains { $0.condition.readsActivity })
                        }
                    }
                }
                _ = SwiftGenerator.generate(schema, options: .init(sourceName: "x.skan"))
            }
        }
    }

    @Test func aMissingFolderFailsTheReplay() {
        #expect(throws: (any Error).self) { try Paths.regressionInputs("no-such-target") }
    }
}
