import Foundation
import SkanCompiler
import SkanCore
import SkanTestSupport
import Testing

@testable import SkanSchemaTools

/// `skanc suggest buckets`: the dynamic programme against brute force, and its field block through the checker.
@Suite struct BucketSuggestionTests {
    /// Every way of cutting `n` sorted values into `parts` runs, each by its first index.
    static func allStarts(_ n: Int, _ parts: Int) -> [[Int]] {
        guard parts > 1 else { return [[0]] }
        var result: [[Int]] = []
        func extend(_ starts: [Int]) {
            if starts.count == parts { return result.append(starts) }
            for next in (starts.last! + 1)..<n where n - next >= parts - starts.count - 1 { extend(starts + [next]) }
        }
        extend([0])
        return result
    }

    @Test(arguments: 0..<30)
    func theProgrammeFindsWhatBruteForceFinds(_ seed: Int) {
        var generator = SplitMix64(seed: UInt64(seed) &+ 77)
        let n = Int.random(in: 1...9, using: &generator)
        let amounts = (0..<n).map { _ in Double(Int.random(in: 0...5000, using: &generator)) / 100 }
        let bits = Int.random(in: 1...2, using: &generator)
        let suggestion = BucketSuggestion(amounts: amounts, bits: bits)
        let errors = RangeErrors(values: suggestion.values, weights: suggestion.weights)
        let parts = min(1 << bits, suggestion.values.count)
        let brute = Self.allStarts(suggestion.values.count, parts).map { starts in
            zip(starts, Array(starts.dropFirst()) + [suggestion.values.count]).reduce(0.0) {
                $0 + errors.cost($1.0, $1.1)
            }
        }.min()!
        let found = suggestion.cuts[0].meanError * Double(amounts.count)
        #expect(abs(found - brute) < 1e-9, "seed \(seed): \(amounts)")
        // And no other method beats it.
        for cut in suggestion.cuts { #expect(cut.meanError >= suggestion.cuts[0].meanError - 1e-12) }
    }

    @Test func theCostIsTheSumOfDistancesFromTheMidPoint() {
        let errors = RangeErrors(values: [1, 2, 6, 10], weights: [1, 2, 1, 1])
        // Run 0..<3 spans 1 to 10 (the next run's first), mid 5.5: 4.5 + 2 * 3.5 + 0.5.
        #expect(errors.cost(0, 3) == 12)
        // The top run 3..<4 spans 10 to 10.
        #expect(errors.cost(3, 4) == 0)
    }

    @Test func theFieldBlockChecksWithoutGaps() throws {
        let text = try String(
            contentsOf: Paths.packageRoot.appendingPathComponent("Tests/Fixtures/revenue-amounts.csv"), encoding: .utf8)
        let amounts = text.split(separator: "\n").dropFirst().compactMap { Double($0.split(separator: ",")[1]) }
        #expect(amounts.count == 3000)
        for bits in 1...4 {
            let suggestion = BucketSuggestion(amounts: amounts, bits: bits)
            #expect(suggestion.cuts[0].lowers.count == 1 << bits)
            let schema = """
                schema S
                version 2
                event purchase value USD
                \(suggestion.fieldBlock(name: "revenue", event: "purchase", bits: bits))
                \(bits < 6 ? "reserved bits \(bits)...5" : "")
                coarse { low otherwise }
                """
            let result = SchemaCompiler.compile(schema)
            #expect(result.diagnostics.isEmpty, "\(bits) bits: \(result.diagnostics)")
        }
    }
}
