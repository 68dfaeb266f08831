import Foundation
import SkanCompiler
import Testing

/// Where the package's files are, from this file's location.
enum Paths {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
}

/// A schema shipped in Schemas/, compiled.
func shippedSchema(_ name: String) throws -> Schema {
    let text = try String(contentsOf: Paths.packageRoot.appendingPathComponent("Schemas/\(name).skan"), encoding: .utf8)
    let result = SchemaCompiler.compile(text, path: "\(name).skan")
    return try #require(result.schema, "\(result.diagnostics)")
}
