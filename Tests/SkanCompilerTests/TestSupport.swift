import Foundation
import SkanCompiler
import Testing

/// Paths of the files tests read, found from this file's location so tests run from any directory.
enum Paths {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let packageRoot = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
    static let schemas = packageRoot.appendingPathComponent("Schemas")
    static let invalidFixtures = testsDirectory.appendingPathComponent("Fixtures/invalid")

    static func schema(_ name: String) -> URL { schemas.appendingPathComponent(name + ".skan") }

    static func files(in directory: URL, extension ext: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == ext }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}

/// Compiles one of the shipped schemas, failing the test when it has any diagnostic.
func shippedSchema(_ name: String) throws -> Schema {
    let text = try String(contentsOf: Paths.schema(name), encoding: .utf8)
    let result = SchemaCompiler.compile(text, path: name + ".skan")
    #expect(result.diagnostics.isEmpty, "\(name): \(result.diagnostics)")
    return try #require(result.schema)
}

/// The diagnostics of a schema given as text.
func diagnostics(_ text: String) -> [Diagnostic] {
    SchemaCompiler.compile(text).diagnostics
}

/// `line:column code` of each diagnostic, for compact assertions.
func summaries(_ text: String) -> [String] {
    diagnostics(text).map { "\($0.location.line):\($0.location.column) \($0.severity.rawValue) \($0.code.rawValue)" }
}

/// The head every small test schema needs: two flags and a field over bits 0...3, bits 4...5 reserved.
let header = """
    schema T
    version 1
    flag registered at bit 0
    flag paid at bit 1
    field tier at bits 2...3 {
      none = 0
      low = 1
      mid = 2
      top = 3
    }
    reserved bits 4...5

    """

/// Compares `actual` with the golden file at `relativePath` (from the package root). With UPDATE_GOLDENS=1
/// it rewrites the file instead; otherwise a difference fails with a unified diff.
func expectGolden(_ actual: String, at relativePath: String, sourceLocation: Testing.SourceLocation = #_sourceLocation)
    throws
{
    let url = Paths.packageRoot.appendingPathComponent(relativePath)
    if ProcessInfo.processInfo.environment["UPDATE_GOLDENS"] == "1" {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(actual.utf8).write(to: url)
        return
    }
    guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
        Issue.record(
            "no golden file at \(relativePath); run UPDATE_GOLDENS=1 swift test to write it",
            sourceLocation: sourceLocation)
        return
    }
    guard actual != expected else { return }
    let diff = UnifiedDiff.diff(expected, actual, oldName: relativePath, newName: "generated")
    Issue.record(
        "\(relativePath) differs from what the code generates now:\n\(diff)Run UPDATE_GOLDENS=1 swift test to accept the change.",
        sourceLocation: sourceLocation)
}
