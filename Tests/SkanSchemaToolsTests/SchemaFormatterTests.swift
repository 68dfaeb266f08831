import Foundation
import SkanCore
import SkanTestSupport
import Testing

@testable import SkanCompiler
@testable import SkanSchemaTools

/// `SchemaFormatter`: the canonical layout, comments kept, idempotent, and the same meaning, over every
/// schema the project holds (shipped, examples, fixtures, the language reference's examples, fuzz regressions).
@Suite struct SchemaFormatterTests {
    @Test func aMessySchemaComesOutCanonical() throws {
        let messy = """
            schema  T version 1 # the version
            # about fields

            field rank at bits 0...3 "Tiers" buckets count { # open
             none = 0 0...1
             few=10 "a few" 2 ... 3
             # many
             many = 2 4... }
            flag a at bit 4
            flag bb at bit 5 "b"
            coarse { high when ( rank >= few and a ) medium when bb low otherwise } lock window 1 when a
            # end

            """
        let expected = """
            schema T
            version 1 # the version

            # about fields

            field rank at bits 0...3 "Tiers" buckets count { # open
              none = 0  0...1
              few  = 10 "a few" 2...3
              # many
              many = 2  4...
            }

            flag a  at bit 4
            flag bb at bit 5 "b"

            coarse {
              high   when (rank >= few and a)
              medium when bb
              low    otherwise
            }

            lock window 1 when a
            # end

            """
        #expect(SchemaFormatter.format(messy) == expected)
        #expect(SchemaFormatter.format(expected) == expected)
    }

    @Test func theShippedSchemasAndExamplesAreFormatted() throws {
        let root = Paths.packageRoot
        let files = try Self.projectSchemas().filter {
            $0.path.hasPrefix(root.appendingPathComponent("Schemas").path)
                || $0.path.hasPrefix(root.appendingPathComponent("Examples").path)
        }
        #expect(files.count >= 7)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(SchemaFormatter.format(text) == text, "\(file.lastPathComponent) is not formatted")
        }
    }

    @Test func syntaxErrorsAreNotFormatted() {
        let (text, diagnostics) = SchemaFormatter.format(
            SourceText(path: "x.skan", text: "schema T version 1 flag a at bit five"))
        #expect(text == nil)
        #expect(diagnostics.hasErrors)
        // Check errors do not stop it.
        #expect(
            SchemaFormatter.format("schema T version 1 flag a at bit 0 flag b at bit 0 coarse { low otherwise }") != nil
        )
    }

    /// Every schema text the project holds, and every example of the language reference.
    static func corpus() throws -> [(name: String, text: String)] {
        var texts = try projectSchemas().map { ($0.lastPathComponent, try String(contentsOf: $0, encoding: .utf8)) }
        texts += try LanguageReferenceExamples.all().map { ("LanguageReference.md:\($0.line)", $0.schema) }
        return texts
    }

    static func projectSchemas() throws -> [URL] {
        var files: [URL] = []
        for folder in ["Schemas", "Examples", "Tests/SkanCompilerTests/Fixtures", "Fuzz/Regressions/schema"] {
            let enumerator = FileManager.default.enumerator(
                at: Paths.packageRoot.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                if url.pathExtension == "skan" { files.append(url) }
            }
        }
        return files.sorted { $0.path < $1.path }
    }

    @Test func idempotentWithTheSameMeaningAndEveryComment() throws {
        let corpus = try Self.corpus()
        #expect(corpus.count >= 40)
        var formattedCount = 0
        for (name, text) in corpus {
            guard let formatted = SchemaFormatter.format(text) else { continue }
            formattedCount += 1
            #expect(SchemaFormatter.format(formatted) == formatted, "\(name): not idempotent")
            let (before, after) = (SchemaCompiler.compile(text), SchemaCompiler.compile(formatted))
            #expect(
                (before.schema == nil) == (after.schema == nil), "\(name): compiles only once formatted, or no more")
            if let a = before.schema, let b = after.schema {
                #expect(a.hasSameMeaning(as: b), "\(name): another schema")
            }
            #expect(before.diagnostics.map(\.code) == after.diagnostics.map(\.code), "\(name): other diagnostics")
            let comments = { (text: String) in
                text.split(separator: "\n").compactMap { line in line.firstIndex(of: "#").map { String(line[$0...]) } }
                    .map { $0.trimmingCharacters(in: .whitespaces) }
            }
            // Every comment, in order (strings in these files hold no '#').
            #expect(comments(text) == comments(formatted), "\(name): comments")
        }
        #expect(formattedCount >= 30)
    }
}

/// Formatting a schema of events keeps its meaning.
@Suite struct EventSchemaFormattingTests {
    @Test func formattingKeepsTheMeaningOfEventSchemas() throws {
        let text = try String(contentsOf: Paths.schemas.appendingPathComponent("Game.skan"), encoding: .utf8)
        let squeezed = text.replacingOccurrences(of: "\n  ", with: " ").replacingOccurrences(
            of: "purchase.count", with: "purchase .count")
        let formatted = try #require(SchemaFormatter.format(squeezed))
        #expect(SchemaCompiler.compile(formatted).schema == SchemaCompiler.compile(text).schema)
        #expect(formatted.contains("purchase.count >= 2"))
        #expect(SchemaFormatter.format(formatted) == formatted)
    }
}
