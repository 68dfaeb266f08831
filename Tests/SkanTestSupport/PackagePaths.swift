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

    /// The inputs in Fuzz/Regressions/`target`, which once made that fuzz target fail, by path. A missing or empty
    /// folder throws: it would otherwise turn a replay into zero tests that all pass.
    public static func regressionInputs(_ target: String) throws -> [URL] {
        let directory = packageRoot.appendingPathComponent("Fuzz/Regressions/\(target)")
        let inputs = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }.sorted { $0.path < $1.path }
        guard !inputs.isEmpty else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: directory.path])
        }
        return inputs
    }

    /// The text of the file at `relativePath` from the package root.
    public static func text(_ relativePath: String) throws -> String {
        try String(contentsOf: file(relativePath), encoding: .utf8)
    }
}
