import Foundation
import SkanTestSupport
import Testing

/// `skanc suggest buckets` end to end: the shipped amounts, a bad line, bad usage.
@Suite struct SuggestCommandTests {
    @Test func suggestsFromTheShippedAmounts() throws {
        let result = try CLI.run([
            "suggest", "buckets", "--from", "Tests/Fixtures/revenue-amounts.csv", "--column", "revenue", "--bits", "2",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("optimal cut: mean error "))
        #expect(result.stdout.contains("quantile cut: ") && result.stdout.contains("log-spaced cut: "))
        #expect(
            result.stdout.contains(
                "field revenue at bits 0...1 \"Revenue (cut by skanc suggest buckets)\" buckets amount of purchase {\n  r0 = 0 0..<"
            ))
    }

    @Test func aBadAmountIsAnErrorAtItsLine() throws {
        let result = try CLI.run(["suggest", "buckets", "--from", "-", "--bits", "1"], stdin: "1.5\n2\nfree\n-3\n")
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("<stdin>:3:1: error: 'free' is not an amount"))
        // A content error carries its own code, not the one of a file that cannot be read.
        #expect(result.stderr.contains("at most 1e15) [amount-invalid]"))
        #expect(!result.stderr.contains("[file-unreadable]"))
        #expect(result.stderr.contains("<stdin>:4:1: error: '-3' is not an amount"))
    }

    @Test func badUsageExits64() throws {
        #expect(try CLI.run(["suggest", "buckets", "--bits", "2"]).status == 64)
        #expect(try CLI.run(["suggest", "buckets", "--from", "x.csv"]).status == 64)
        #expect(try CLI.run(["suggest", "buckets", "--from", "x.csv", "--bits", "7"]).status == 64)
        #expect(try CLI.run(["suggest", "cuts", "--from", "x.csv", "--bits", "2"]).status == 64)
        let missing = try CLI.run([
            "suggest", "buckets", "--from", "Tests/Fixtures/revenue-amounts.csv", "--column", "spend", "--bits", "2",
        ])
        #expect(missing.status == 1 && missing.stderr.contains("no column 'spend' in the header row [amounts-csv]"))
    }
}

/// `skanc lint` end to end: warnings with their place, exit codes.
@Suite struct LintCommandTests {
    @Test func warnsWithThePlaceAndTheFix() throws {
        let result = try CLI.run(["lint", "Schemas/Platforms/SKANStandardEvents.skan"])
        #expect(result.status == 0)
        #expect(
            result.stderr.contains(
                "Schemas/Platforms/SKANStandardEvents.skan:10:7: warning: the fine value can go down, from 12 to 11 after 'purchase'"
            ))
        #expect(result.stderr.contains("[non-monotone-fine]"))
        #expect(try CLI.run(["lint", "Schemas/Platforms/SKANStandardEvents.skan", "--warnings-as-errors"]).status == 1)
        #expect(try CLI.run(["lint", "Schemas/Shop.skan", "--warnings-as-errors"]).status == 0)
        #expect(try CLI.run(["lint"]).status == 64)
        #expect(try CLI.run(["lint", "Schemas/Shop.skan", "--for", "tiktok"]).status == 64)
        let meta = try CLI.run(["lint", "Schemas/Platforms/SKANStandardEvents.skan", "--for", "meta"])
        #expect(meta.status == 0)
    }
}
