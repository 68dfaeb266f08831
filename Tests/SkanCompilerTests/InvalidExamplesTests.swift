import Foundation
import SkanCompiler
import SkanCore
import SkanTestSupport
import Testing

/// Each fixture (a copy of the project's invalid examples) says in `# expect:` lines which diagnostics it
/// must produce: `file:line:column: severity: [code]`, and `a note pointing at file:line:column`.
/// The compiler must produce exactly those diagnostics, no more and no fewer, with at least the notes named.
@Suite struct InvalidExamplesTests {
    static let fixtures = (try? Paths.files(in: Paths.invalidFixtures, extension: "skan")) ?? []

    @Test func everyFixtureIsFound() {
        #expect(
            Self.fixtures.map(\.lastPathComponent) == [
                "case-width.skan", "coarse-gap.skan", "out-of-range.skan", "overlap.skan", "syntax.skan",
                "unknown-name.skan",
            ])
    }

    @Test(arguments: fixtures)
    func fixtureProducesExactlyItsExpectedDiagnostics(_ url: URL) throws {
        let text = try String(contentsOf: url, encoding: .utf8)
        let name = url.lastPathComponent
        var expected: [String] = []
        var expectedNotes: [String] = []
        for line in text.split(separator: "\n") where line.hasPrefix("# expect: ") {
            let body = line.dropFirst("# expect: ".count)
            if body.hasPrefix("a note pointing at ") {
                expectedNotes.append(String(body.dropFirst("a note pointing at ".count)))
                continue
            }
            // case-width.skan:9:10: error: [case-width]   (gist)
            let parts = body.split(separator: ":", maxSplits: 4).map { $0.trimmingCharacters(in: .whitespaces) }
            let code = parts[4].drop { $0 != "[" }.dropFirst().prefix { $0 != "]" }
            expected.append("\(parts[0]):\(parts[1]):\(parts[2]): \(parts[3]): [\(code)]")
        }
        #expect(!expected.isEmpty, "\(name) has no expect lines")
        let found = SchemaCompiler.compile(text, path: name).diagnostics
        #expect(
            found.map {
                "\(name):\($0.location?.line ?? 0):\($0.location?.column ?? 0): \($0.severity.rawValue): [\($0.code.rawValue)]"
            } == expected)
        // Notes that the header names must be there; further notes may explain more.
        let notes = found.flatMap(\.notes).compactMap(\.location).map { "\(name):\($0.line):\($0.column)" }
        for note in expectedNotes {
            #expect(notes.contains(note), "\(name): no note at \(note)")
        }
    }
}
