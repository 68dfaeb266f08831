import Foundation
import SkanCompiler
public import SkanCore
public import SkanSchema

/// A shipped schema that has diagnostics: the shipped schemas are clean, so a test that reads one stops here.
public struct UncleanSchema: Error, CustomStringConvertible {
    /// The schema's name.
    public var name: String
    /// What the compiler said.
    public var diagnostics: [Diagnostic]

    /// The diagnostics as the compiler prints them.
    public var description: String {
        "\(name).skan: "
            + diagnostics.map { DiagnosticFormatter().format($0, path: "\(name).skan") }.joined(separator: "\n")
    }
}

/// Compiles the shipped schema `name` (Schemas/`name`.skan); throws when it has any diagnostic at all.
public func shippedSchema(_ name: String) throws -> Schema {
    let text = try String(contentsOf: Paths.schema(name), encoding: .utf8)
    let result = SchemaCompiler.compile(text, path: name + ".skan")
    guard result.diagnostics.isEmpty, let schema = result.schema else {
        throw UncleanSchema(name: name, diagnostics: result.diagnostics)
    }
    return schema
}

/// Compiles the test fixture `name` (Tests/SkanCompilerTests/Fixtures/`name`.skan); throws when it has any
/// diagnostic at all.
public func compiledFixture(_ name: String) throws -> Schema {
    let text = try String(contentsOf: Paths.file("Tests/SkanCompilerTests/Fixtures/\(name).skan"), encoding: .utf8)
    let result = SchemaCompiler.compile(text, path: name + ".skan")
    guard result.diagnostics.isEmpty, let schema = result.schema else {
        throw UncleanSchema(name: name, diagnostics: result.diagnostics)
    }
    return schema
}
