import Foundation
import SkanCompiler
import SkanCore
import SkanTestSupport
import Testing

@testable import SkanPostbacks

/// Every postback input in Fuzz/Regressions/postbacks, replayed through the fuzz target's checks. A missing
/// or empty folder fails the test instead of replaying nothing.
@Suite struct PostbackFuzzRegressionTests {
    @Test func postbackInputsStillPass() throws {
        for url in try Paths.regressionInputs("postbacks") {
            let bytes = try [UInt8](Data(contentsOf: url))
            let (rows, summary) = readPostbacks(bytes, schema: try shippedSchema("Shop"), chunk: 64)
            #expect(rows.count == summary.read + 1, "\(url.lastPathComponent)")
        }
    }
}

/// Every `.times` input in Fuzz/Regressions/times: a time for each line that is Unix seconds, none for the others.
@Suite struct ReceiptTimesFuzzRegressionTests {
    @Test func timesInputsStillPass() throws {
        for url in try Paths.regressionInputs("times") {
            let bytes = try [UInt8](Data(contentsOf: url))
            let times = ReceiptTimes(bytes)
            #expect(times.seconds.count == bytes.count { $0 == 10 } + (bytes.last == 10 || bytes.isEmpty ? 0 : 1))
            let warned = Set(times.diagnostics(lines: times.seconds.count, shown: .max).compactMap(\.location?.line))
            #expect(warned == Set(times.seconds.indices.filter { times.seconds[$0] == nil }.map { $0 + 1 }))
        }
    }
}
