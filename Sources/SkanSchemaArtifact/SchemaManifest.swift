/// What an app is told to use (docs/RemoteSchemas.md): the live version, the version in rollout with its share,
/// the revoked versions, and every version published with its times, under a serial number that only grows.
/// Signed as a JWS (`SignedManifest`); written in canonical JSON.
public struct SchemaManifest: Sendable, Equatable {
    /// This manifest format's version; a reader refuses one it does not know.
    public static let format = 1

    /// One published version: its number and its artifact file (`schemas/<artifact>.json`, the SHA-256 of the
    /// file's bytes).
    public struct Published: Sendable, Equatable {
        /// The schema's version.
        public var version: Int
        /// The SHA-256 of the artifact file, lowercase hex: its name under `schemas/`.
        public var artifact: String
        /// When it was published (Unix seconds).
        public var publishedAt: Int
        /// When it last became live (Unix seconds); nil if it never was.
        public var liveSince: Int?
        /// When it stopped being live or in rollout (Unix seconds); nil while it is either, or was never retired.
        public var retiredAt: Int?

        /// A version published at `publishedAt`.
        public init(version: Int, artifact: String, publishedAt: Int, liveSince: Int? = nil, retiredAt: Int? = nil) {
            self.version = version
            self.artifact = artifact
            self.publishedAt = publishedAt
            self.liveSince = liveSince
            self.retiredAt = retiredAt
        }
    }

    /// The App Store ID of the app.
    public var appID: String
    /// Grows by one with every manifest: an app refuses a manifest whose serial is below one it has seen.
    public var serial: Int
    /// When this manifest was made (Unix seconds).
    public var issuedAt: Int
    /// The version every install uses (but those in the rollout's share); nil before the first publish.
    public var live: Int?
    /// The version in rollout and the share of installs (1-99 %) that use it.
    public var rollout: (version: Int, percent: Int)?
    /// Versions taken from devices: an app that uses one returns to the live version at its next safe point.
    public var revoked: [Int]
    /// Every version published, in the order published.
    public var versions: [Published]

    /// An empty manifest for `appID`, serial 0.
    public init(appID: String) {
        self.init(appID: appID, serial: 0, issuedAt: 0, live: nil, rollout: nil, revoked: [], versions: [])
    }

    /// A manifest with every member given.
    public init(
        appID: String, serial: Int, issuedAt: Int, live: Int?, rollout: (version: Int, percent: Int)?,
        revoked: [Int], versions: [Published]
    ) {
        self.appID = appID
        self.serial = serial
        self.issuedAt = issuedAt
        self.live = live
        self.rollout = rollout
        self.revoked = revoked
        self.versions = versions
    }

    /// The published version numbered `version`.
    public func published(_ version: Int) -> Published? { versions.first { $0.version == version } }

    /// Whether two manifests say the same (the rollout compared member by member: a tuple is not `Equatable`).
    public static func == (left: SchemaManifest, right: SchemaManifest) -> Bool {
        left.appID == right.appID && left.serial == right.serial && left.issuedAt == right.issuedAt
            && left.live == right.live && left.rollout?.version == right.rollout?.version
            && left.rollout?.percent == right.rollout?.percent && left.revoked == right.revoked
            && left.versions == right.versions
    }
}
