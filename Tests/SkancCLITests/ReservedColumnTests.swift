import Foundation
import SkanCompiler
import SkanCore
import SkanPostbacks
import SkanSchema
import SkanSchemaTools
import SkanTestSupport
import Testing

/// A flag or field may not make a column that an output already has: every column of `skanc table` and of
/// `skanc postbacks` (and so of `skanc sql`), taken from their declarations, not from a copy of the list.
@Suite struct ReservedColumnTests {
    static let postbackColumns = PostbackColumn.allCases.map(\.name)
    static let allColumns = Array(Set(DecodingTable.columnNames + postbackColumns)).sorted()

    static func schema(flag name: String) -> String {
        "schema T\nversion 1\nflag \(name) at bit 0\nreserved bits 1...5\ncoarse { low otherwise }\n"
    }

    /// The plugin's tool and the library agree with `skanc check`: a flag named `status` passed `skanc-generate`
    /// (exit 0, Swift written) because the postback columns were known only to the command line.
    @Test func everyCallerOfTheCompilerRefusesTheSameNames() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skanc-reserved-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let schema = directory.appendingPathComponent("Status.skan").path
        let output = directory.appendingPathComponent("Status.swift").path
        try Self.schema(flag: "status").write(toFile: schema, atomically: true, encoding: .utf8)
        let tool = CLI.executable.deletingLastPathComponent().appendingPathComponent("skanc-generate")
        let generated = try CLI.run([schema, output, "Status.skan"], executable: tool)
        #expect(generated.status == 1)
        #expect(generated.stderr.contains("'status' would make the column 'status'"), "\(generated.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try CLI.run(["check", schema]).status == 1)
        #expect(SchemaCompiler.compile(Self.schema(flag: "status")).diagnostics.map(\.code) == [.name])
    }

    @Test func everyOutputColumnIsRefusedAtTheNameWithTheColumnItWouldCollideWith() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skanc-reserved-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for column in Self.allColumns {
            let path = directory.appendingPathComponent("\(column).skan").path
            try Self.schema(flag: column).write(toFile: path, atomically: true, encoding: .utf8)
            paths.append(path)
        }
        let result = try CLI.run(["check"] + paths)
        #expect(result.status == 1)
        for (column, path) in zip(Self.allColumns, paths) {
            var outputs: [String] = []
            if DecodingTable.columnNames.contains(column) { outputs.append("skanc table") }
            if Self.postbackColumns.contains(column) { outputs.append("skanc postbacks") }
            if Self.postbackColumns.contains(column), column != "file" { outputs.append("skanc sql") }
            let owners =
                outputs.count == 1
                ? "the output of \(outputs[0]) has"
                : "the outputs of \(outputs.dropLast().joined(separator: ", ")) and \(outputs.last!) have"
            #expect(
                result.stderr.contains(
                    "\(path):3:6: error: '\(column)' would make the column '\(column)', which \(owners) already; rename the flag [name]\n"
                ), "\(column)")
        }
    }

    @Test func aCamelCaseNameIsRefusedByItsSnakeCaseColumn() throws {
        let result = try CLI.run(["check", "-"], stdin: Self.schema(flag: "sourceIdentifier"))
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "<stdin>:3:6: error: 'sourceIdentifier' would make the column 'source_identifier', which the outputs of skanc postbacks and skanc sql have already; rename the flag [name]\n"
        )
    }

    @Test func theLanguageReferenceListsEveryReservedColumn() throws {
        let reference = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("docs/LanguageReference.md"), encoding: .utf8)
        let paragraph = try #require(reference.split(separator: "\n").first { $0.contains("an output already has") })
        for column in Self.allColumns {
            #expect(paragraph.contains("`\(column)`"), "\(column)")
        }
        #expect(!paragraph.contains("…"))
    }

    @Test func theHelpListsThePostbackColumns() throws {
        let help = try CLI.run(["postbacks", "--help"]).stdout
        let flat = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for column in PostbackColumn.allCases where column != .file {
            #expect(flat.contains(column.name), "\(column.name)")
        }
    }
}

/// Every schema in the repository that compiles gives JSON lines without a key twice: each object has as many
/// keys as the CSV header has columns, and the header has no name twice.
@Suite struct PostbackKeysAreUniqueTests {
    static let schemas: [String] = {
        let root = CLI.packageRoot
        var found: [String] = []
        for folder in ["Schemas", "Examples", "Tests", "Fuzz"] {
            let enumerator = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)
            while let path = enumerator?.nextObject() as? String {
                if path.hasSuffix(".skan"), !path.contains("/invalid/") { found.append("\(folder)/\(path)") }
            }
        }
        return found.sorted()
    }()

    @Test func theRepositoryHasSchemasToCheck() {
        #expect(Self.schemas.count >= 15)
        #expect(Self.schemas.contains("Schemas/Shop.skan"))
    }

    @Test(arguments: schemas)
    func jsonLinesNeverHoldAKeyTwice(_ schema: String) throws {
        guard try CLI.run(["check", schema]).status == 0 else { return }
        let csv = try CLI.run(["postbacks", schema, "Tests/Fixtures/apple-examples.jsonl", "--no-verify"])
        let header = try #require(csv.stdout.split(separator: "\r\n").first).split(separator: ",").map(String.init)
        #expect(Set(header).count == header.count, "\(schema): \(header)")
        let jsonl = try CLI.run([
            "postbacks", schema, "Tests/Fixtures/apple-examples.jsonl", "--no-verify", "--format", "jsonl",
        ])
        let lines = jsonl.stdout.split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object.count == header.count, "\(schema): \(line)")
        }
    }
}

/// docs/Postbacks.md's table of columns is `PostbackColumn`'s, row for row, in its order.
@Suite struct PostbackColumnDocumentationTests {
    @Test func theColumnsTableIsTheDeclaration() throws {
        let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent("docs/Postbacks.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let header = try #require(lines.firstIndex(of: "| column | SKAdNetwork | AdAttributionKit |"))
        let rows = lines[(header + 2)...].prefix { $0.hasPrefix("|") }
        let expected = PostbackColumn.allCases.flatMap { column -> [String] in
            let cells = ["`\(column.name)`", column.source.skadnetwork, column.source.adAttributionKit]
            let row = "|" + cells.map { $0.isEmpty ? " " : " \($0) " }.joined(separator: "|") + "|"
            return column == .coarseMeaning
                ? [
                    "| one per schema field | the case (snake_case column names), only for a fine value valid for the schema | same |",
                    row,
                ] : [row]
        }
        #expect(rows.map(String.init) == expected)
    }
}
