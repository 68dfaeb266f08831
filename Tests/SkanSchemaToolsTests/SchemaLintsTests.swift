import SkanCompiler
import SkanCore
import SkanSchemaTools
import Testing

/// Each lint on a schema that raises it and on one that does not.
@Suite struct SchemaLintsTests {
    static func codes(_ text: String, for platform: SchemaLints.Platform? = nil) throws -> [String] {
        let result = SchemaCompiler.compile(text)
        let schema = try #require(result.schema, "\(result.diagnostics)")
        return SchemaLints.lint(schema, for: platform).map(\.code.rawValue)
    }

    /// Two windows' coarse rules read every field, so `coarse-blind` stays out of the other cases.
    static func schema(_ declarations: String, coarse: String = "coarse { high when a  low otherwise }") -> String {
        "schema L\nversion 2\n" + declarations + "\n" + coarse + "\n"
    }

    @Test func fineAfterWindowOne() throws {
        let late = Self.schema(
            "event open\nflag a at bit 0 when open\nfield b at bits 1...2 buckets count of open in window { none = 0 0  some = 1 1... }\nreserved bits 3...5",
            coarse:
                "coarse window 1 { high when a  low otherwise }\ncoarse windows 2...3 { high when a  low otherwise }")
        #expect(try Self.codes(late).contains("fine-after-window-one"))
        let early = Self.schema(
            "event open\nflag a at bit 0 when open\nfield b at bits 1...2 buckets count of open within 48 hours { none = 0 0  some = 1 1... }\nreserved bits 3...5",
            coarse: "coarse { high when a and b == some  low otherwise }")
        #expect(!(try Self.codes(early).contains("fine-after-window-one")))
        let readLater = Self.schema(
            "event open\nflag a at bit 0 when open\nfield b at bits 1...2 buckets count of open in window { none = 0 0  some = 1 1... }\nreserved bits 3...5",
            coarse: "coarse { high when b == some  medium when a  low otherwise }")
        #expect(!(try Self.codes(readLater).contains("fine-after-window-one")))
    }

    @Test func nonMonotoneFine() throws {
        let down = Self.schema(
            "event buy\nfield a at bits 0...1 { many = 1 when buy.count >= 2  one = 2 when buy  none = 0 otherwise }\nreserved bits 2...5",
            coarse: "coarse { high when a == many  low otherwise }")
        #expect(try Self.codes(down).contains("non-monotone-fine"))
        let up = Self.schema(
            "event buy\nfield a at bits 0...1 { many = 2 when buy.count >= 2  one = 1 when buy  none = 0 otherwise }\nreserved bits 2...5",
            coarse: "coarse { high when a == many  low otherwise }")
        #expect(!(try Self.codes(up).contains("non-monotone-fine")))
    }

    @Test func coarseInconsistent() throws {
        let inconsistent = Self.schema(
            "flag a at bit 0\nflag b at bit 1\nreserved bits 2...5",
            coarse: "coarse { high when a and not b  low otherwise }")
        #expect(try Self.codes(inconsistent).contains("coarse-inconsistent"))
        let consistent = Self.schema(
            "flag a at bit 0\nflag b at bit 1\nreserved bits 2...5",
            coarse: "coarse { high when a and b  medium when a or b  low otherwise }")
        #expect(!(try Self.codes(consistent).contains("coarse-inconsistent")))
    }

    @Test func lockAtStart() throws {
        let atStart = Self.schema(
            "event open\nflag a at bit 0 when open\nreserved bits 1...5\nlock window 1 when not a")
        #expect(try Self.codes(atStart).contains("lock-at-start"))
        let later = Self.schema("event open\nflag a at bit 0 when open\nreserved bits 1...5\nlock window 1 when a")
        #expect(!(try Self.codes(later).contains("lock-at-start")))
        let timed = Self.schema(
            "event open\nflag a at bit 0 when open\nreserved bits 1...5\nlock window 2 after 48 hours")
        #expect(try Self.codes(timed).contains("lock-at-start"))
    }

    /// `skanc help lint` lists the lints from their declaration: each one, once, with its summary.
    @Test func everyLintHasAOneLineSummary() {
        for lint in SchemaLints.Lint.allCases {
            #expect(!lint.summary.isEmpty && !lint.summary.contains("\n") && lint.summary.count <= 80, "\(lint)")
        }
    }

    @Test func lockWithoutUpdate() throws {
        let unsent = Self.schema(
            "flag registered at bit 0\nflag paid at bit 1\nreserved bits 2...5\nlock window 2 when registered",
            coarse:
                "coarse window 1 { high when paid  low otherwise }\ncoarse windows 2...3 { high when paid and registered  nothing otherwise }"
        )
        let codes = try Self.codes(unsent)
        #expect(codes.contains("lock-without-update"))
        let schema = try #require(SchemaCompiler.compile(unsent).schema)
        let message = try #require(SchemaLints.lint(schema).first { $0.code.rawValue == "lock-without-update" })
        #expect(message.message.hasPrefix("the lock of window 2 holds in fine value 1, whose state sends nothing"))
        let sent = Self.schema(
            "flag registered at bit 0\nflag paid at bit 1\nreserved bits 2...5\nlock window 2 when paid and registered",
            coarse:
                "coarse window 1 { high when paid  low otherwise }\ncoarse windows 2...3 { high when paid and registered  nothing otherwise }"
        )
        #expect(!(try Self.codes(sent).contains("lock-without-update")))
    }

    @Test func coarseBlind() throws {
        let blind = Self.schema(
            "flag a at bit 0\nflag b at bit 1\nreserved bits 2...5",
            coarse:
                "coarse window 1 { high when a and b  low otherwise }\ncoarse windows 2...3 { high when a  low otherwise }"
        )
        #expect(try Self.codes(blind) == ["coarse-blind"])
        let seen = Self.schema(
            "flag a at bit 0\nflag b at bit 1\nreserved bits 2...5",
            coarse: "coarse { high when a and b  medium when a or b  low otherwise }")
        #expect(try Self.codes(seen).isEmpty)
    }

    @Test func tooFewRevenueRangesForMeta() throws {
        let three = Self.schema(
            "event buy value USD\nfield a at bits 0...1 buckets amount of buy { none = 0 0..<1  some = 1 1..<10  more = 2 10... }\nreserved bits 2...5",
            coarse: "coarse { high when a == more  medium when a == some  low otherwise }")
        #expect(try Self.codes(three, for: .meta).contains("too-few-revenue-ranges"))
        #expect(!(try Self.codes(three).contains("too-few-revenue-ranges")))
        let four = Self.schema(
            "event buy value USD\nfield a at bits 0...1 buckets amount of buy { none = 0 0..<1  some = 1 1..<10  more = 2 10..<50  most = 3 50... }\nreserved bits 2...5",
            coarse: "coarse { high when a >= more  medium when a == some  low otherwise }")
        #expect(!(try Self.codes(four, for: .meta).contains("too-few-revenue-ranges")))
    }

    /// A bound between two whole minor units means the next whole one; the warning says which. Whole bounds, and
    /// a currency without a minor unit (XAU), raise nothing.
    @Test func amountBetweenUnits() throws {
        func lint(_ currency: String, _ condition: String, bucket: String = "0..<5") throws -> [Diagnostic] {
            let text = Self.schema(
                "event buy value \(currency)\nflag a at bit 0 when \(condition)\n"
                    + "field r at bits 1...2 buckets amount of buy { low = 0 \(bucket)  high = 1 5... }\nreserved bits 3...5",
                coarse: "coarse { high when a and r == high  low otherwise }")
            let schema = try #require(SchemaCompiler.compile(text).schema)
            return SchemaLints.lint(schema).filter { $0.code == .amountBetweenUnits }
        }
        #expect(try lint("USD", "buy.sum >= 10").isEmpty)
        #expect(try lint("XAU", "buy.sum >= 9.995", bucket: "0..<4.995").isEmpty)
        let meant = try lint("USD", "buy.sum > 9.995 or buy.sum == 0.5 or buy.sum != 0.005").map(\.message)
        #expect(meant.count == 2)
        #expect(meant.first?.contains("'buy.sum > 9.995' lies between whole units of USD (0.01)") == true)
        #expect(meant.first?.contains("so it means 'buy.sum >= 10'") == true)
        #expect(meant.last?.contains("a comparison that always holds") == true)
        let yen = try lint("JPY", "buy.sum < 999.5", bucket: "0...4.5").map(\.message)
        #expect(yen.contains { $0.contains("so it means 'buy.sum <= 999'") })
        #expect(yen.contains { $0.contains("bucket 'low' of 'r' (0...4.5) has a bound") && $0.contains("'0...4'") })
    }
}
