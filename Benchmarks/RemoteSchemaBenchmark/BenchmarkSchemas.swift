import Foundation
import SkanRemoteSchema
import SkanSchemaArtifact

/// The artifact named on the command line, read once: what the interpreter runs, as an app runs a fetched one.
let benchmarkArtifact: SchemaArtifact = {
    let arguments = CommandLine.arguments
    guard arguments.count >= 2, let bytes = FileManager.default.contents(atPath: arguments[1]),
        let artifact = try? SchemaArtifact(bytes: [UInt8](bytes))
    else {
        FileHandle.standardError.write(Data("remote-schema-benchmark: the first argument is no artifact\n".utf8))
        exit(64)
    }
    return artifact
}()

/// The schemas the interpreted state uses: the one artifact.
enum BenchmarkSchemas: InterpretedSchemas {
    static func current() -> SchemaArtifact { benchmarkArtifact }
    static func artifact(named name: String) -> SchemaArtifact? {
        name == benchmarkArtifact.fileName ? benchmarkArtifact : nil
    }
}
