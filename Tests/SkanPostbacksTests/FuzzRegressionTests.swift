import Foundation
import SkanCompiler
import SkanTestSupport
import Testing

@testable import SkanPostbacks

/// Every postback input in Fuzz/Regressions/postbacks, replayed through the fuzz target's checks. A missing
/// or empty folder fails the test instead of replaying nothing.
@Suite struct PostbackFuzzRegressionTests {
    @Test func postbackInputsStillPass() throws {
        let directory = Paths.packageRoot.appendingPathComponent("Fuzz/Regressions/postbacks")
        let inputs = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
        #expect(!inputs.isEmpty)
        for url in inputs {
            let bytes = try [UInt8](Data(contentsOf: url))
            let (rows, summary) = readPostbacks(bytes, schema: try shippedSchema("Shop"), chunk: 64)
            #expect(rows.count == summary.read + 1, "\(url.lastPathComponent)")
        }
    }
}
