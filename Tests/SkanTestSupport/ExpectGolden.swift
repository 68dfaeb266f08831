public import Testing

/// Compares `actual` with the golden file at `relativePath` (from the package root); a difference fails with a
/// unified diff (UPDATE_GOLDENS=1 rewrites the file instead).
public func expectGolden(
    _ actual: String, at relativePath: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
)
    throws
{
    if let mismatch = try GoldenFile.mismatch(actual, at: relativePath) {
        Issue.record(Comment(rawValue: mismatch), sourceLocation: sourceLocation)
    }
}
