public import Foundation

/// Where the package's files are, found from this file's location so that tests run from any directory.
public enum Paths {
    /// The package's root folder (the one with Package.swift).
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// The shipped schemas.
    public static let schemas = packageRoot.appendingPathComponent("Schemas")

    /// The shipped schema `name` (`Shop` is Schemas/Shop.skan).
    public static func schema(_ name: String) -> URL { schemas.appendingPathComponent(name + ".skan") }

    /// A file or folder given by its path from the package root.
    public static func file(_ relativePath: String) -> URL { packageRoot.appendingPathComponent(relativePath) }

    /// The files of `directory` whose extension is `ext`, by name.
    public static func files(in directory: URL, extension ext: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == ext }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// The text of the file at `relativePath` from the package root.
    public static func text(_ relativePath: String) throws -> String {
        try String(contentsOf: file(relativePath), encoding: .utf8)
    }
}
