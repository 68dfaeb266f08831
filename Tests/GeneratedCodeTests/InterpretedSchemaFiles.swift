import Foundation
import SkanCompiler
import SkanRemoteSchema
import SkanSchemaArtifact
import SkanTestSupport

/// A schema file in the repository, named by a type, so the interpreter can run it as an app runs a fetched one.
protocol SchemaFileSource {
    /// The file, relative to the package root.
    static var schemaPath: String { get }
}

/// The artifacts an interpreted state of `Source` uses: the file compiled, written as an artifact and read
/// back from its bytes, as an app reads what it fetched. Compiled at each new conversion (a few per test).
enum InterpretedFile<Source: SchemaFileSource>: InterpretedSchemas {
    static func current() -> SchemaArtifact { artifact() }

    static func artifact(named name: String) -> SchemaArtifact? {
        let artifact = artifact()
        return artifact.fileName == name ? artifact : nil
    }

    static func artifact() -> SchemaArtifact {
        guard
            let text = try? String(
                contentsOf: Paths.packageRoot.appendingPathComponent(Source.schemaPath), encoding: .utf8),
            let schema = SchemaCompiler.compile(text, path: Source.schemaPath).schema,
            let read = try? SchemaArtifact(bytes: SchemaArtifact(schema: schema, appID: "1234567890").bytes)
        else { preconditionFailure("\(Source.schemaPath) does not compile to an artifact that reads back") }
        return read
    }
}
