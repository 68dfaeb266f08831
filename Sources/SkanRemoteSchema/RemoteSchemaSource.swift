public import Foundation
import SkanCrypto
import SkanSchema
public import SkanSchemaArtifact

/// Schemas over the air, in the app (docs/RemoteSchemas.md): fetches the manifest `skanc publish` signed and the
/// artifacts it names, verifies them against the team's pinned key, keeps the last good ones on disk, and says
/// which schema an install uses (the live version, or the version in rollout for its share of installs). Nothing
/// it is sent can make it use a schema the key did not sign: a manifest that does not verify, is older than one
/// seen (a replay), names another app, or an artifact whose bytes are not the ones named, is refused and the last
/// good schema kept; every outcome is reported to `report`. Never on the path of an update: call `refresh()` at
/// launch, in a task of its own; `schema()` answers at once with what is held.
public actor RemoteSchemaSource {
    /// Where and how to fetch, and what to trust.
    public struct Configuration: Sendable {
        /// `https://HOST/.../APP_ID/manifest.jws`; artifacts are fetched beside it (`schemas/<sha256>.json`).
        public var manifestURL: URL
        /// The App Store ID the manifest must be for.
        public var appID: String
        /// The team's P-256 public key (DER `SubjectPublicKeyInfo`, what `openssl ec -pubout -outform DER` writes).
        public var publicKey: [UInt8]
        /// The artifact the app ships (`skanc compile`), used until a manifest has been verified.
        public var bundledArtifact: [UInt8]?
        /// Where the last good manifest and artifacts are kept between launches.
        public var cacheDirectory: URL
        /// The least time between two fetches that succeeded, in seconds (default 6 hours).
        public var refreshInterval: Double = 6 * 3600
        /// Seconds a fetch may take.
        public var timeout: Double = 10
        /// The first wait after a failure, in seconds, doubled at each failure (with jitter) up to `refreshInterval`.
        public var retryDelay: Double = 60

        /// The DER of the first `PUBLIC KEY` block of PEM text (`openssl ec -pubout`), for `publicKey`; nil when
        /// there is none.
        public static func publicKey(pem: String) -> [UInt8]? { PEM.der(pem, labelEndingWith: "PUBLIC KEY") }

        /// A configuration with the defaults above.
        public init(
            manifestURL: URL, appID: String, publicKey: [UInt8], bundledArtifact: [UInt8]?, cacheDirectory: URL
        ) {
            self.manifestURL = manifestURL
            self.appID = appID
            self.publicKey = publicKey
            self.bundledArtifact = bundledArtifact
            self.cacheDirectory = cacheDirectory
        }
    }

    /// What a refresh did.
    public enum Outcome: Sendable, Equatable {
        /// A new manifest was verified and is in use.
        case updated(serial: Int)
        /// The server's manifest is the one held (304, or the same serial).
        case unchanged
        /// Not fetched: the last fetch is recent, or a failure's wait has not passed.
        case skipped
        /// Fetched but refused (the reason); the last good schema stays in use.
        case refused(String)
        /// Not fetched (the reason: server down, timeout, an answer too large); the last good schema stays.
        case failed(String)
    }

    let configuration: Configuration
    let fetcher: any SchemaFetcher
    let report: @Sendable (Outcome) -> Void
    let key: PinnedKey?
    /// The last manifest verified, its entity tag, and the artifacts of its live and rollout versions.
    var held: Held
    var nextFetch = Date.distantPast
    var failures = 0

    /// A source that starts from its cache (or the bundled artifact) and fetches with `fetcher`.
    public init(
        _ configuration: Configuration, fetcher: any SchemaFetcher = URLSessionSchemaFetcher(),
        report: @escaping @Sendable (Outcome) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.fetcher = fetcher
        self.report = report
        key = PinnedKey(der: configuration.publicKey)
        held = Held.load(configuration, key: key)
    }

    /// The serial of the manifest in use; nil before one was verified.
    public var serial: Int? { held.manifest?.serial }

    /// The schema this install uses: the version in rollout when the install's bucket is inside its share,
    /// else the live version; the bundled artifact before any manifest was verified.
    public func schema(installID: String) -> SchemaArtifact? {
        guard let manifest = held.manifest else { return held.bundled }
        if let chosen = manifest.version(forInstall: installID), let artifact = held.artifacts[chosen] {
            return artifact
        }
        return manifest.live.flatMap { held.artifacts[$0] } ?? held.bundled
    }

    /// Fetches the manifest unless a fetch is not due (`force` fetches anyway), verifies it and the artifacts
    /// it needs, and keeps them; any problem keeps what is held.
    @discardableResult
    public func refresh(now: Date = Date(), force: Bool = false) async -> Outcome {
        guard force || now >= nextFetch else { return .skipped }
        let outcome = await fetchAndVerify()
        switch outcome {
        case .updated, .unchanged:
            failures = 0
            nextFetch = now.addingTimeInterval(configuration.refreshInterval)
        case .refused, .failed:
            failures += 1
            // Exponential backoff with jitter: many devices that failed together do not retry together.
            let delay = min(
                configuration.refreshInterval, configuration.retryDelay * pow(2, Double(min(failures - 1, 20))))
            nextFetch = now.addingTimeInterval(delay * Double.random(in: 0.5...1))
        case .skipped: break
        }
        report(outcome)
        return outcome
    }

    /// `fetcher.get`, given up after `timeout` seconds whatever the transport does (a server that sends a byte
    /// now and then keeps a transport's idle timer from firing).
    private func get(_ url: URL, etag: String?) async throws -> SchemaFetch {
        let (fetcher, timeout, limit) = (self.fetcher, configuration.timeout, SchemaArtifact.maximumBytes)
        return try await withThrowingTaskGroup(of: SchemaFetch?.self) { group in
            group.addTask { try await fetcher.get(url, etag: etag, timeout: timeout, limit: limit) }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(timeout * 1_000_000_000))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let answer = first else {
                throw SchemaFetchError(description: "no answer within \(timeout) seconds")
            }
            return answer
        }
    }

    private func fetchAndVerify() async -> Outcome {
        guard let key else { return .refused("the pinned key is not a P-256 public key (DER SubjectPublicKeyInfo)") }
        let answer: SchemaFetch
        do {
            answer = try await get(configuration.manifestURL, etag: held.manifest == nil ? nil : held.etag)
        } catch {
            return .failed("the manifest could not be fetched: \(error)")
        }
        guard case .fetched(let bytes, let etag) = answer else { return .unchanged }
        let manifest: SchemaManifest
        do {
            manifest = try SignedManifest(jws: Array(bytes), verifier: key).manifest
        } catch {
            return .refused(error.message)
        }
        guard manifest.appID == configuration.appID else {
            return .refused("the manifest is for app \(manifest.appID), not \(configuration.appID)")
        }
        if let current = held.manifest {
            guard manifest.serial >= current.serial else {
                return .refused("manifest serial \(manifest.serial) is older than \(current.serial): a replay")
            }
            if manifest.serial == current.serial {
                held.etag = etag
                return .unchanged
            }
        }
        // The artifacts the manifest needs: every one checked against its name before anything changes.
        var artifacts: [Int: SchemaArtifact] = [:]
        for version in [manifest.live, manifest.rollout?.version].compactMap({ $0 }) {
            guard let published = manifest.published(version) else { continue }
            if let kept = held.artifacts[version], kept.fileName == published.artifact {
                artifacts[version] = kept
                continue
            }
            let url = configuration.manifestURL.deletingLastPathComponent()
                .appendingPathComponent("schemas").appendingPathComponent(published.artifact + ".json")
            let fetched: SchemaFetch
            do {
                fetched = try await get(url, etag: nil)
            } catch {
                return .failed("artifact \(published.artifact) could not be fetched: \(error)")
            }
            guard case .fetched(let data, _) = fetched else { return .failed("artifact \(published.artifact): 304") }
            let artifact: SchemaArtifact
            do {
                artifact = try SchemaArtifact(bytes: Array(data))
            } catch {
                return .refused("artifact of version \(version): \(error.message)")
            }
            guard artifact.fileName == published.artifact, artifact.schema.version == version,
                artifact.appID == configuration.appID
            else { return .refused("artifact of version \(version) is not the one the manifest names") }
            artifacts[version] = artifact
        }
        held = Held(
            manifest: manifest, manifestBytes: Array(bytes), etag: etag, artifacts: artifacts, bundled: held.bundled)
        held.save(configuration)
        return .updated(serial: manifest.serial)
    }
}
