import Foundation
import SkanCompiler
import SkanCore
import SkanSchema
import SkanTestSupport
import Testing

/// The exact text of messages that say what to do: where a mistake is, the fix, nothing left empty.
@Suite struct MessageTextTests {
    /// Each diagnostic as the compiler prints it, without the path.
    static func printed(_ text: String) -> [String] {
        diagnostics(text).flatMap { diagnostic in
            let head =
                "\(diagnostic.location?.line ?? 0):\(diagnostic.location?.column ?? 0): \(diagnostic.severity.rawValue): \(diagnostic.message) [\(diagnostic.code.rawValue)]"
            return [head]
                + diagnostic.notes.map { note in
                    (note.location.map { "\($0.line):\($0.column): " } ?? "") + "note: \(note.message)"
                }
        }
    }

    static let retention = """
        schema T
        version 1
        field retentionDays at bits 0...1 buckets count {
          day0 = 0 0
          day1 = 1 1...1
          more = 2 2...
        }
        reserved bits 2...5
        coarse {
          high when retentionDays >= day1
          low otherwise
        }
        """

    @Test func aSingleNumberIsAOneValueBucket() {
        // `day0 = 0 0` is `0...0`: the schema checks clean, and `day1` is a case the condition finds.
        #expect(Self.printed(Self.retention).isEmpty)
        let schema = SchemaCompiler.compile(Self.retention).schema
        #expect(
            schema?.fields.first?.cases.first?.bucket
                == BucketRange(
                    lower: 0, upper: 0, isHalfOpen: false, lowerText: "0", upperText: "0"))
    }

    @Test func aCaseListIsNeverEmpty() {
        let text = """
            schema T
            version 1
            field retentionDays at bits 0...1 buckets count {
              day0 = 0 0..<
            }
            reserved bits 2...5
            coarse {
              high when retentionDays >= day1
              low otherwise
            }
            """
        #expect(
            Self.printed(text) == [
                "5:1: error: expected a number, found '}' [syntax]",
                "8:30: error: field 'retentionDays' has no case named 'day1' [unknown-name]",
                "3:7: note: no case of 'retentionDays' could be read; fix the errors in its cases first",
            ])
    }

    @Test func twoDotsAreOneErrorThatSaysRangesUseThree() {
        let text =
            "schema T\nversion 1\nfield a at bits 4..5 { x = 0  y = 1 }\nreserved bits 0...3\ncoarse { low otherwise }"
        #expect(
            Self.printed(text) == [
                "3:18: error: ranges use '...' (or '..<' for a bucket's half-open range): write '4...5' [syntax]"
            ])
    }

    @Test func aWindowRangeAfterWindowSuggestsWindows() {
        let text = "schema T\nversion 1\nflag a at bit 0\nreserved bits 1...5\ncoarse window 1...3 { low otherwise }"
        #expect(Self.printed(text) == ["5:16: error: a range of windows is written 'windows 1...3' [syntax]"])
    }

    @Test func aSingleEqualsInAConditionSuggestsDoubleEquals() {
        let text = """
            schema T
            version 1
            field a at bits 0...1 { small = 0  big = 1 }
            reserved bits 2...5
            coarse {
              high when a = big
              low otherwise
            }
            """
        #expect(Self.printed(text) == ["6:15: error: compare with '==': write 'a == big' [syntax]"])
    }

    @Test func aCurrencySignSaysAmountsHaveNoUnit() {
        let text = """
            schema T
            version 1
            field revenue at bits 0...1 buckets amount {
              none = 0 0..<$1
              some = 1 1...
            }
            reserved bits 2...5
            coarse { low otherwise }
            """
        #expect(Self.printed(text) == ["4:16: error: amounts have no unit: write '1', not '$1' [syntax]"])
    }

    @Test func anOrderingComparisonOnCasesWrittenOutOfCodeOrderWarns() {
        let text = """
            schema T
            version 1
            field event at bits 0...2 {
              none = 0
              firstPurchase = 4
              secondPurchase = 5
              thirdPurchase = 3
            }
            reserved bits 3...5
            coarse {
              high when event >= firstPurchase
              low otherwise
            }
            """
        #expect(
            Self.printed(text) == [
                "11:22: warning: 'event >= firstPurchase' compares codes, not the order the cases of 'event' are written in: it does not hold for 'thirdPurchase' (code 3); write the cases in code order, or compare with '==' [case-order]"
            ])
        // In code order, or compared with `==`, there is nothing to say.
        let inOrder = text.replacingOccurrences(of: "thirdPurchase = 3", with: "thirdPurchase = 6")
        #expect(Self.printed(inOrder).isEmpty)
        #expect(Self.printed(text.replacingOccurrences(of: ">=", with: "==")).isEmpty)
    }

    @Test func anOverlapNamesEveryDeclarationItOverlaps() {
        let text = """
            schema T
            version 1
            flag a at bit 0
            flag b at bit 1
            field c at bits 0...2 { x = 0 }
            reserved bits 3...5
            coarse { low otherwise }
            """
        #expect(
            Self.printed(text) == [
                "5:17: error: bits 0...2 of c overlap bit 0 of a and bit 1 of b; every bit belongs to one declaration [overlap]",
                "3:15: note: bit 0 of a declared here",
                "4:15: note: bit 1 of b declared here",
            ])
    }
}

/// Conditions are bounded: the generated Swift of the longest allowed one type-checks quickly, and a longer one
/// is refused at the condition.
@Suite struct ConditionLimitTests {
    static func schema(terms: Int) -> String {
        let condition = (0..<terms).map { $0 % 2 == 0 ? "a == x\($0 % 4)" : "b" }.joined(separator: " or ")
        return """
            schema Big
            version 1
            field a at bits 0...1 { x0 = 0  x1 = 1  x2 = 2  x3 = 3 }
            flag b at bit 2
            reserved bits 3...5
            coarse {
              high when \(condition)
              low otherwise
            }
            """
    }

    @Test func twoThousandFortyEightTermsAreAllowedAndOneMoreIsNot() {
        #expect(diagnostics(Self.schema(terms: 2_048)).isEmpty)
        #expect(
            MessageTextTests.printed(Self.schema(terms: 5_000)) == [
                "7:13: error: the condition names 5000 flags and comparisons; a condition may name at most 2048: compare a field with '>=' or '<', or split the rule [limit]"
            ])
        #expect(summaries(Self.schema(terms: 2_049)) == ["7:13 error limit"])
    }
}
