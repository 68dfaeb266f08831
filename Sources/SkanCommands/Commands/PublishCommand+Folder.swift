import Foundation
import SkanCompiler
import SkanCore
import SkanCrypto
import SkanFiles
import SkanSchema
import SkanSchemaArtifact

/// The folder `skanc publish` writes for one app: `schemas/<sha256>.json` and `manifest.jws`.
struct PublishedFolder {
    let root: String
    let appID: String

    var appFolder: String { root + "/" + appID }
    var manifestPath: String { appFolder + "/manifest.jws" }
    func artifactPath(_ name: String) -> String { appFolder + "/schemas/" + name + ".json" }

    /// The manifest in force and every version's schema, read from their artifacts; an empty manifest when
    /// there is none yet. Nil (the problem printed) when the manifest does not verify with `publicKey` or an
    /// artifact is missing or changed.
    func read(publicKey: ECDSAPublicKey?, _ context: CommandContext) -> (
        manifest: SchemaManifest, schemas: [Int: Schema]
    )? {
        guard FileManager.default.fileExists(atPath: manifestPath) else { return (SchemaManifest(appID: appID), [:]) }
        guard let bytes = context.read(manifestPath, what: "a manifest", limit: .table) else { return nil }
        let manifest: SchemaManifest
        do {
            if let publicKey {
                manifest = try SignedManifest(jws: bytes, publicKey: publicKey).manifest
            } else {
                manifest = try SignedManifest.unverifiedManifest(jws: bytes)
            }
        } catch {
            context.diagnostics([.error(.manifestInvalid, error.message, at: nil)], path: manifestPath)
            return nil
        }
        guard manifest.appID == appID else {
            context.diagnostics(
                [.error(.manifestInvalid, "the manifest is app \(manifest.appID)'s, not \(appID)'s", at: nil)],
                path: manifestPath)
            return nil
        }
        var schemas: [Int: Schema] = [:]
        for published in manifest.versions {
            let path = artifactPath(published.artifact)
            guard let bytes = context.read(path, what: "a schema artifact", limit: .table) else { return nil }
            let message: String
            do {
                let artifact = try SchemaArtifact(bytes: bytes)
                if artifact.fileName == published.artifact, artifact.schema.version == published.version {
                    schemas[published.version] = artifact.schema
                    continue
                }
                message = "the file is not the artifact the manifest names (version \(published.version))"
            } catch {
                message = error.message
            }
            context.diagnostics([.error(.manifestInvalid, message, at: nil)], path: path)
            return nil
        }
        return (manifest, schemas)
    }

    /// Writes the new artifact (when there is one; never over an existing file) and then the manifest, each
    /// atomically; false (the problem printed) when one cannot be written.
    func write(artifact: (name: String, bytes: [UInt8])?, manifest: SignedManifest, _ context: CommandContext) -> Bool {
        do {
            try FileManager.default.createDirectory(
                atPath: appFolder + "/schemas", withIntermediateDirectories: true)
        } catch {
            context.diagnostics(
                [.error(.fileUnwritable, "cannot make the folder: \(error.localizedDescription)", at: nil)],
                path: appFolder)
            return false
        }
        do {
            if let artifact, !FileManager.default.fileExists(atPath: artifactPath(artifact.name)) {
                try FileOutput.writeIfChanged(data: Data(artifact.bytes), to: artifactPath(artifact.name))
            }
            try FileOutput.writeIfChanged(manifest.compact + "\n", to: manifestPath)
        } catch {
            context.diagnostics([error.diagnostic], path: error.path)
            return false
        }
        return true
    }
}

extension DiagnosticCode {
    /// A manifest or artifact in a published folder that does not read or verify.
    static let manifestInvalid = DiagnosticCode("manifest-invalid")
}
