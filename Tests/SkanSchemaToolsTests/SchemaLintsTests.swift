import SkanCompiler
import SkanCore
import SkanSchema
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

    /// Each bound the warning can spell is a fix-it that writes it in place (the comparison from the event's
    /// name, the bucket's range), on whatever line and after whatever text it stands; applied, the schema means
    /// the same in whole units and the lint says nothing more. A comparison that never or always holds has none.
    @Test func amountBetweenUnitsFixIts() throws {
        let text = Self.schema(
            "event buy value USD\nevent tip value JPY\n"
                + "flag a at bit 0 \"Payé 🎉\" when buy.sum > 9.995 or (tip.sum < 999.5 and not buy.sum <= 0.001)\n"
                + "field r at bits 1...2 buckets amount of buy {\n  low = 0 0..<4.995\n  mid = 1 4.995...19.999\n"
                + "  high = 2 20.001...\n}\nflag b at bit 3 when buy.sum == 0.505 or buy.sum != 0.005\nreserved bits 4...5",
            coarse: "coarse { high when a and r == high\n  medium when buy.sum >= 0.015  low otherwise }")
        let compiled = SchemaCompiler.compile(text)
        let schema = try #require(compiled.schema, "\(compiled.diagnostics)")
        let found = SchemaLints.lint(schema, amounts: compiled.amounts).filter { $0.code == .amountBetweenUnits }
        #expect(found.count == 9)
        let fixes = found.flatMap(\.fixIts)
        #expect(
            fixes.map { "\($0.location) \($0.original) -> \($0.replacement)" } == [
                "5:35 buy.sum > 9.995 -> buy.sum >= 10", "5:55 tip.sum < 999.5 -> tip.sum <= 999",
                "5:79 buy.sum <= 0.001 -> buy.sum <= 0", "7:11 0..<4.995 -> 0..<5", "8:11 4.995...19.999 -> 5...19.99",
                "9:12 20.001 -> 20.01",
                "14:15 buy.sum >= 0.015 -> buy.sum >= 0.02",
            ])
        // Without the text's places (an artifact's schema), the warnings stay and carry no fix-it.
        #expect(SchemaLints.lint(schema).filter { $0.code == .amountBetweenUnits }.flatMap(\.fixIts).isEmpty)

        var bytes = Array(text.utf8)
        for fix in fixes.sorted(by: { $0.location.offset > $1.location.offset }) {
            let range = fix.location.offset..<(fix.location.offset + fix.original.utf8.count)
            #expect(String(decoding: bytes[range], as: UTF8.self) == fix.original)
            bytes.replaceSubrange(range, with: Array(fix.replacement.utf8))
        }
        let fixed = try #require(SchemaCompiler.compile(String(decoding: bytes, as: UTF8.self)).schema)
        let left = SchemaLints.lint(fixed).filter { $0.code == .amountBetweenUnits }.map(\.message)
        #expect(left.count == 2 && left.allSatisfy { $0.contains("a comparison that") })
        // The same meaning: every sum of whole cents (yen) from 0 to 25 (1,200) decides each condition alike.
        for (before, after) in zip(schema.fields, fixed.fields) {
            #expect(before.name == after.name)
            for cents in 0...2_500 {
                let facts = Facts(buy: Double(cents) / 100, tip: Double(cents % 1_201))
                #expect(facts.decide(before) == facts.decide(after), "\(before.name) at \(cents)")
            }
        }
    }

    /// Sums of the two events of `amountBetweenUnitsFixIts`, and what a field's conditions and buckets say of them.
    private struct Facts {
        var buy: Double
        var tip: Double

        func holds(_ condition: Condition) -> Bool {
            switch condition {
            case .eventMeasure(let event, .sum, let op, let number): op.holds(event == 0 ? buy : tip, number)
            case .not(let inner): !holds(inner)
            case .all(let parts): parts.allSatisfy(holds)
            case .any(let parts): parts.contains(where: holds)
            default: true
            }
        }

        func decide(_ field: Field) -> [Bool] {
            switch field.derivation {
            case .flag(let condition)?: [holds(condition)]
            case .buckets?: field.cases.map { $0.bucket?.contains(buy) ?? false }
            default: []
            }
        }
    }
}
