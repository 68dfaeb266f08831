import Foundation
import SkanCrypto
import SkanSchemaArtifact

extension RemoteSchemaSource {
    /// What a source holds: the last verified manifest (its bytes, to keep), its entity tag, the artifacts of its
    /// live and rollout versions, and the bundled artifact.
    struct Held: Sendable {
        var manifest: SchemaManifest?
        var manifestBytes: [UInt8] = []
        var etag: String?
        var artifacts: [Int: SchemaArtifact] = [:]
        var bundled: SchemaArtifact?

        /// The cache of `configuration`, verified again (a cache is a file like any other), else the bundled
        /// artifact alone.
        static func load(_ configuration: Configuration, key: PinnedKey?) -> Held {
            let bundled = configuration.bundledArtifact.flatMap { try? SchemaArtifact(bytes: $0) }
            var held = Held(bundled: bundled)
            let folder = configuration.cacheDirectory
            guard let key, let bytes = try? Data(contentsOf: folder.appendingPathComponent("manifest.jws")),
                let manifest = try? SignedManifest(jws: Array(bytes), verifier: key).manifest,
                manifest.appID == configuration.appID
            else { return held }
            var artifacts: [Int: SchemaArtifact] = [:]
            for version in [manifest.live, manifest.rollout?.version].compactMap({ $0 }) {
                guard let published = manifest.published(version),
                    let data = try? Data(contentsOf: folder.appendingPathComponent(published.artifact + ".json")),
                    let artifact = try? SchemaArtifact(bytes: Array(data)), artifact.fileName == published.artifact
                else { return held }
                artifacts[version] = artifact
            }
            held.manifest = manifest
            held.manifestBytes = Array(bytes)
            held.artifacts = artifacts
            held.etag = (try? String(contentsOf: folder.appendingPathComponent("etag"), encoding: .utf8))
            return held
        }

        /// Keeps the manifest, its entity tag and its artifacts in the cache (each file replaced atomically; the
        /// manifest last, so a cache cut short names only artifacts it holds). A failure to write is no failure
        /// of the source: the next launch fetches again.
        func save(_ configuration: Configuration) {
            let folder = configuration.cacheDirectory
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for artifact in artifacts.values {
                try? Data(artifact.bytes).write(
                    to: folder.appendingPathComponent(artifact.fileName + ".json"), options: .atomic)
            }
            try? Data((etag ?? "").utf8).write(to: folder.appendingPathComponent("etag"), options: .atomic)
            try? Data(manifestBytes).write(to: folder.appendingPathComponent("manifest.jws"), options: .atomic)
        }
    }
}
