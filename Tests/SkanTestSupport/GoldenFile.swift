import Foundation

/// Golden files: expected outputs kept in the repository, compared byte for byte.
public enum GoldenFile {
    /// Whether this run rewrites golden files instead of comparing (`UPDATE_GOLDENS=1 swift test`).
    public static var updating: Bool { ProcessInfo.processInfo.environment["UPDATE_GOLDENS"] == "1" }

    /// Compares `actual` with the golden file at `relativePath` (from the package root): nil when they are the
    /// same (or the file was rewritten), otherwise what is wrong with a unified diff and what to do.
    public static func mismatch(_ actual: String, at relativePath: String) throws -> String? {
        let url = Paths.file(relativePath)
        if updating {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: url)
            return nil
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            return "no golden file at \(relativePath); run UPDATE_GOLDENS=1 swift test to write it"
        }
        guard actual != expected else { return nil }
        let diff = UnifiedDiff.diff(expected, actual, oldName: relativePath, newName: "generated")
        return "\(relativePath) differs from what the code generates now:\n\(diff)"
            + "Run UPDATE_GOLDENS=1 swift test to accept the change."
    }
}
