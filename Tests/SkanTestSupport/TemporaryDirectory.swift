public import Foundation

/// A directory of its own for one test (tests run in parallel), removed when the value goes away.
public final class TemporaryDirectory {
    /// The directory.
    public let url: URL

    /// Makes a new, empty directory under the system's temporary directory.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("skanc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
