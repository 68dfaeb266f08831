import Foundation
import SkanCompiler
import SkanCore
import SkanTestSupport
import Testing

extension Paths {
    /// The invalid schemas with the diagnostics they must produce.
    static let invalidFixtures = file("Tests/SkanCompilerTests/Fixtures/invalid")
}

/// The diagnostics of a schema given as text.
func diagnostics(_ text: String) -> [Diagnostic] {
    SchemaCompiler.compile(text).diagnostics
}

/// `line:column code` of each diagnostic, for compact assertions.
func summaries(_ text: String) -> [String] {
    diagnostics(text).map {
        "\($0.location?.line ?? 0):\($0.location?.column ?? 0) \($0.severity.rawValue) \($0.code.rawValue)"
    }
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

/// Compares `actual` with the golden file at `relativePath` (from the package root); a difference fails with a
/// unified diff (UPDATE_GOLDENS=1 rewrites the file instead).
func expectGolden(_ actual: String, at relativePath: String, sourceLocation: Testing.SourceLocation = #_sourceLocation)
    throws
{
    if let mismatch = try GoldenFile.mismatch(actual, at: relativePath) {
        Issue.record(Comment(rawValue: mismatch), sourceLocation: sourceLocation)
    }
}
