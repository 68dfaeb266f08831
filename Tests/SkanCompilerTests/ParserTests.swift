import SkanCore
import Testing

@testable import SkanCompiler

@Suite struct ParserTests {
    private func parse(_ text: String) -> (SchemaSyntax, [Diagnostic]) {
        Parser.parse(Array(text.utf8))
    }

    @Test func parsesEveryDeclarationKind() {
        let (syntax, diagnostics) = parse(
            """
            schema Shop version 3
            flag registered at bit 0 "Registered"
            field revenue at bits 1...2 "Revenue" buckets amount {
              none = 0 0..<0.01
              some = 1 "some" 0.01...
            }
            reserved bit 5
            coarse windows 2...3 { high when not (registered and revenue > none) or revenue == some  low otherwise }
            lock when registered
            """)
        #expect(diagnostics.isEmpty)
        #expect(syntax.name?.text == "Shop")
        #expect(syntax.version?.value == 3)
        #expect(syntax.declarations.count == 5)
        guard case .field(let field) = syntax.declarations[1] else {
            Issue.record("not a field")
            return
        }
        #expect(field.buckets?.unit == .amount)
        #expect(field.cases[1].range?.upper == nil)
        #expect(field.cases[1].description?.value == "some")
        guard case .coarse(let block) = syntax.declarations[3] else {
            Issue.record("not coarse")
            return
        }
        #expect(block.windows?.upper?.value == 3)
        #expect(block.rules.count == 2)
        guard case .any(let terms)? = block.rules[0].condition else {
            Issue.record("not an or")
            return
        }
        #expect(terms.count == 2)
    }

    @Test func recoversToReportSeveralErrors() {
        let (syntax, diagnostics) = parse(
            """
            schema T
            version 1
            flag a at bit x
            flag b at bit 1
            field c at bits 2...3 {
              none = zero
              one = 1
            }
            coarse { low when }
            """)
        #expect(diagnostics.map { $0.location?.description } == ["3:15", "6:10", "9:19"])
        #expect(syntax.declarations.count == 3)
    }

    @Test func missingHeaderIsReported() {
        let (_, diagnostics) = parse("flag a at bit 0")
        #expect(diagnostics.first?.message.contains("expected 'schema'") == true)
    }

    @Test func unclosedBlocksPointAtTheOpeningBrace() {
        let (_, diagnostics) = parse("schema T version 1\nfield f at bit 0 {\n  a = 0\n")
        #expect(diagnostics.count == 1)
        #expect(diagnostics[0].notes.first?.location?.description == "2:18")
    }

    @Test func deepNestingIsALimitNotACrash() {
        let depth = 100_000
        let text =
            "schema T version 1 flag a at bit 0 coarse { low when " + String(repeating: "(", count: depth) + "a"
            + String(repeating: ")", count: depth) + " low otherwise }"
        let (_, diagnostics) = parse(text)
        #expect(diagnostics.contains { $0.code == .limit })
        let nots = "schema T version 1 flag a at bit 0 lock when " + String(repeating: "not ", count: depth) + "a"
        #expect(parse(nots).1.contains { $0.code == .limit })
    }

    @Test func hugeIntegersAreALimit() {
        let (_, diagnostics) = parse("schema T version 99999999999999999999999")
        #expect(diagnostics.map(\.code) == [.limit])
    }
}
