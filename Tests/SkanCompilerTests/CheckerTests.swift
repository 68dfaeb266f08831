import Foundation
import SkanCompiler
import SkanCore
import SkanTestSupport
import Testing

/// One test per diagnostic code: the smallest schema that produces it, and where it points.
@Suite struct CheckerTests {
    @Test func validSchemaHasNoDiagnostics() {
        #expect(summaries(header + "coarse { high when rank >= mid  low otherwise }") == [])
    }

    @Test func syntax() {
        #expect(summaries(header + "coarse { low whenever }") == ["12:14 error syntax"])
    }

    @Test func bitRange() {
        let text = "schema T version 1\nflag a at bit 7\nfield b at bits 3...1 { x = 0 }\ncoarse { low otherwise }"
        #expect(summaries(text) == ["2:15 error bit-range", "3:17 error bit-range"])
        #expect(diagnostics(text)[1].message.contains("'bits 1...3'"))
    }

    @Test func windowRange() {
        #expect(
            summaries(header + "coarse window 4 { low otherwise }\ncoarse { low otherwise }")
                == ["12:15 error window-range"])
        #expect(
            summaries(header + "coarse { low otherwise }\nlock windows 3...2 when paid") == ["13:14 error window-range"]
        )
    }

    @Test func overlapPointsAtTheLaterDeclarationWithANote() {
        let found = diagnostics(
            header.replacingOccurrences(of: "reserved bits 4...5", with: "reserved bits 3...5")
                + "coarse { low otherwise }")
        #expect(found.map(\.code) == [.overlap])
        #expect(found[0].location?.description == "11:15")
        #expect(found[0].notes.map { $0.location?.description } == ["5:20"])
        #expect(
            found[0].message == "reserved bits 3...5 overlap bits 2...3 of rank; every bit belongs to one declaration")
    }

    /// `_` names nothing in Swift, but the generator resolves it (`__`): the schema may use it.
    @Test func theWildcardIsAName() {
        let text =
            "schema T version 1\nflag _ at bit 0\nfield g at bits 1...2 { _ = 0 b = 1 }\nfield __x at bits 3...5 { a = 0 }\ncoarse { low otherwise }"
        #expect(summaries(text) == [])
    }

    @Test func caseWidth() {
        #expect(
            summaries(
                "schema T version 1 flag f at bit 0 field g at bits 1...5 { a = 0 b = 32 } coarse { low otherwise }")
                == ["1:70 error case-width"])
    }

    @Test func duplicates() {
        let text = """
            schema T version 1
            flag a at bit 0
            flag a at bit 1
            field f at bits 2...3 { x = 0  x = 1  y = 1 }
            reserved bits 4...5
            coarse { low otherwise }
            coarse { high otherwise }
            coarse window 2 { low otherwise }
            coarse windows 2...3 { low otherwise }
            lock when a
            lock when a
            """
        #expect(
            summaries(text) == [
                "3:6 error duplicate", "4:32 error duplicate", "4:43 error duplicate",
                "7:1 error duplicate", "9:1 error duplicate", "11:1 error duplicate",
            ])
    }

    /// A currency ISO 4217 does not list is summed as logged: a warning naming the closest listed code, as a
    /// fix-it; codes listed without a minor unit (gold) and lower-case spellings are no mistake.
    @Test func anUnlistedCurrencyWarnsWithTheClosestCode() {
        let schema = { (code: String) in
            "schema T\nversion 1\nevent purchase value \(code)\nflag paid at bit 0 when purchase.sum >= 1\n"
                + "reserved bits 1...5\ncoarse { low otherwise }\n"
        }
        let found = diagnostics(schema("USB"))
        #expect(found.map { "\($0.severity) \($0.code)" } == ["warning currency"])
        #expect(found.first?.message.hasSuffix("did you mean 'USD'?") == true)
        #expect(found.first?.fixIts.map { "\($0.location) \($0.original) -> \($0.replacement)" } == ["3:22 USB -> USD"])
        for listed in ["USD", "usd", "JPY", "XAU", "XXX"] { #expect(diagnostics(schema(listed)).isEmpty, "\(listed)") }
    }

    /// Amounts are whole minor units: closed buckets `0.01...4.99` and `5...` of USD leave no amount between them,
    /// nor `...999` and `1000...` of JPY; in gold (XAU, no minor unit) 4.995 falls in none.
    @Test func closedAmountBucketsOneUnitApartHaveNoGap() {
        func gaps(_ currency: String, _ low: String, _ high: String) -> [String] {
            diagnostics(
                """
                schema T
                version 1
                event purchase value \(currency)
                field revenue at bits 0...1 buckets amount of purchase {
                  low  = 0 \(low)
                  high = 1 \(high)
                }
                reserved bits 2...5
                coarse { low otherwise }
                """
            ).map { "\($0.code)" }
        }
        #expect(gaps("USD", "0...4.99", "5...") == [])
        #expect(gaps("JPY", "0...999", "1000...") == [])
        #expect(gaps("USD", "0...4.98", "5...") == ["bucket-gap"])
        #expect(gaps("XAU", "0...4.99", "5...") == ["bucket-gap"])
    }

    @Test func unknownNameSuggestsTheNearestName() {
        let found = diagnostics(header + "coarse { high when rank == tpo or paied  low otherwise }")
        #expect(
            found.map(\.message) == [
                "field 'rank' has no case named 'tpo'; did you mean 'top'?",
                "no flag or field named 'paied'; did you mean 'paid'?",
            ])
        #expect(found.map { $0.location?.description } == ["12:28", "12:35"])
        // Each suggestion is also a fix-it that editors apply: the misspelled name, where it is, and its mending.
        #expect(
            found.map { $0.fixIts.map { "\($0.location) \($0.original) -> \($0.replacement)" } } == [
                ["12:28 tpo -> top"], ["12:35 paied -> paid"],
            ])
        #expect(diagnostics(header + "coarse { high when zzz  low otherwise }")[0].fixIts.isEmpty)
        #expect(summaries(header + "coarse { high when zzz  low otherwise }") == ["12:20 error unknown-name"])
        #expect(
            diagnostics(header + "coarse { high when zzz  low otherwise }")[0].message == "no flag or field named 'zzz'"
        )
    }

    @Test func typeErrors() {
        #expect(
            summaries(header + "coarse { high when rank  medium when paid == top  low otherwise }")
                == ["12:20 error type", "12:38 error type"])
    }

    @Test func coarseGapNamesAFineValueAndTheWindows() {
        let found = diagnostics(header + "coarse window 1 { low otherwise }\ncoarse windows 2...3 { high when paid }")
        #expect(found.map(\.code) == [.coarseGap])
        #expect(found[0].location?.description == "13:1")
        #expect(found[0].message.hasPrefix("fine value 0 reaches no coarse rule in windows 2...3"))
    }

    @Test func windowsWithoutAnyBlockAreAGap() {
        let found = diagnostics(header + "coarse window 1 { low otherwise }")
        #expect(found.map(\.code) == [.coarseGap])
        #expect(found[0].message.hasPrefix("windows 2...3 have no coarse rules"))
    }

    @Test func unreachableRules() {
        let text = header + "coarse { low otherwise  high when paid  medium when rank > top }"
        #expect(summaries(text) == ["12:25 warning unreachable", "12:41 warning unreachable"])
        #expect(diagnostics(text)[1].message.contains("no valid state satisfies 'rank > top'"))
    }

    @Test func bucketErrors() {
        let text = """
            schema T version 1
            field r at bits 0...2 buckets amount { a = 0 0..<5  b = 1 4..<10  c = 2  d = 3 9..<9 }
            field n at bits 3...4 buckets count { one = 0 0.5...1  many = 1 2... }
            field p at bit 5 { x = 0 1...2 }
            coarse { low otherwise }
            """
        #expect(
            summaries(text) == [
                "2:59 error bucket", "2:71 error bucket", "2:80 error bucket", "3:47 error bucket", "4:26 error bucket",
            ])
    }

    @Test func bucketGaps() {
        let text = """
            schema T version 1
            field r at bits 0...2 buckets amount { a = 0 1..<5  b = 1 6..<10 }
            field n at bits 3...5 buckets count { one = 0 0...1  two = 1 2...2  many = 2 4... }
            coarse { low otherwise }
            """
        #expect(
            summaries(text) == [
                "2:46 warning bucket-gap", "2:59 warning bucket-gap", "2:59 warning bucket-gap",
                "3:78 warning bucket-gap",
            ])
    }

    @Test func bucketOrder() {
        // Codes that shrink as amounts grow: one warning, at the first bucket out of order, with a note.
        let text = """
            schema T version 1
            field r at bits 0...1 buckets amount { none = 0 0..<0.01  small = 3 0.01..<5  mid = 2 5..<20  whale = 1 20... }
            reserved bits 2...5
            coarse { low otherwise }
            """
        #expect(summaries(text) == ["2:85 warning bucket-order"])  // at mid's code 2
        #expect(diagnostics(text)[0].notes.map { $0.location?.description } == ["2:67"])  // small's code 3
        // Declared in any order, codes that grow with the ranges are fine.
        let ordered = text.replacingOccurrences(of: "small = 3", with: "small = 1")
            .replacingOccurrences(of: "whale = 1", with: "whale = 3")
        #expect(summaries(ordered) == [])
    }

    @Test func unusedBitsOnlyWhenThereIsNoError() {
        #expect(
            summaries("schema T version 1\nflag a at bit 0\ncoarse { low otherwise }") == ["1:8 warning unused-bits"])
        #expect(
            diagnostics("schema T version 1\nflag a at bit 2\nflag b at bit 4\ncoarse { low otherwise }")[0].message
                == "bits 0, 1, 3 and 5 belong to no declaration; declare them or mark them 'reserved bit 0', 'reserved bit 1', 'reserved bit 3', 'reserved bit 5'"
        )
        #expect(
            summaries("schema T version 1\nflag a at bit 0\ncoarse { low when b }").map { $0.hasSuffix("unused-bits") }
                == [false])
    }

    /// Swift names the generated code needs for itself are resolved by the generator; only the table columns
    /// that outputs have already are refused.
    @Test func namesTheGeneratedCodeNeedsAreRefusedOnlyForTheirColumns() {
        let text = """
            schema T version 1
            flag fineValue at bit 0
            field level at bit 1 { rawValue = 0  b = 1 }
            field Window at bit 2 { a = 0 }
            field coarseValue at bit 3 { a = 0 }
            flag Swift at bit 4
            flag Self at bit 5
            coarse { low otherwise }
            """
        #expect(summaries(text) == ["2:6 error name", "4:7 error name", "5:7 error name"])
        #expect(diagnostics(text).allSatisfy { $0.message.contains("would make the column") })
    }

    /// `and`, `or` and `not` are always operators in a condition, so nothing may be called so (a flag called
    /// `and` used to check clean, read by `medium when and`).
    @Test func theConditionOperatorsAreNoNames() {
        let text = """
            schema T version 2
            event not
            flag and at bit 0
            field or at bit 1 { a = 0  b = 1 }
            reserved bits 2...5
            coarse { medium when and  low otherwise }
            """
        #expect(summaries(text) == ["2:7 error name", "3:6 error name", "4:7 error name"])
        #expect(
            diagnostics(text)[1].message
                == "'and' is an operator in conditions ('and', 'or', 'not'), so no condition could read this flag; give it another name"
        )
    }

    @Test func oneRunReportsManyIndependentMistakes() {
        let text = """
            schema Many
            version 1
            flag registered at bit 0
            flag extra at bit 7
            field rank at bits 1...2 { none = 0  big = 9 }
            field other at bits 2...3 { a = 0 }
            reserved bit 5
            coarse {
              high when rank >= larg
              medium when registerd
              low otherwise
            }
            lock window 5 when registered
            """
        #expect(Set(diagnostics(text).map(\.code)) == [.bitRange, .caseWidth, .overlap, .unknownName, .windowRange])
        #expect(diagnostics(text).count == 6)
    }
}
