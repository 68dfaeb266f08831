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

    /// A new directory holding `files`: each name's text.
    public convenience init(files: [String: String]) throws {
        try self.init()
        for (name, text) in files { try write(text, to: name) }
    }

    /// Writes `text` to the file `name` in the directory; its URL.
    @discardableResult
    public func write(_ text: String, to name: String) throws -> URL {
        try write(bytes: Array(text.utf8), to: name)
    }

    /// Writes `bytes` to the file `name` in the directory; its URL.
    @discardableResult
    public func write(bytes: [UInt8], to name: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file
    }

    /// Copies the file at `source` into the directory as `name`; the copy's URL.
    @discardableResult
    public func copy(_ source: URL, as name: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try FileManager.default.copyItem(at: source, to: file)
        return file
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
