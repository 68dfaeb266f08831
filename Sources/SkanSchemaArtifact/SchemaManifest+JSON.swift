import SkanCore

extension SchemaManifest {
    /// The manifest as canonical JSON: the JWS payload.
    public var bytes: [UInt8] {
        CanonicalJSON.object([
            "format": .integer(Self.format), "app_id": .string(appID), "serial": .integer(serial),
            "issued_at": .integer(issuedAt), "live": live.map(CanonicalJSON.integer) ?? .null,
            "rollout": rollout.map { .object(["version": .integer($0.version), "percent": .integer($0.percent)]) }
                ?? .null,
            "revoked": .array(revoked.map(CanonicalJSON.integer)),
            "versions": .array(
                versions.map { published in
                    .object([
                        "version": .integer(published.version), "artifact": .string(published.artifact),
                        "published_at": .integer(published.publishedAt),
                        "live_since": published.liveSince.map(CanonicalJSON.integer) ?? .null,
                        "retired_at": published.retiredAt.map(CanonicalJSON.integer) ?? .null,
                    ])
                }),
        ]).bytes
    }

    /// The manifest in `bytes` (a JWS payload); `SchemaArtifact.Invalid` when it is not one this reader takes:
    /// another format, a member of the wrong type, a version it names but does not list, an artifact name that is
    /// no SHA-256.
    public init(bytes: [UInt8]) throws(SchemaArtifact.Invalid) {
        guard bytes.count <= SchemaArtifact.maximumBytes else {
            throw SchemaArtifact.Invalid(message: "a manifest has at most \(SchemaArtifact.maximumBytes) bytes")
        }
        var reader = JSONReader(bytes: bytes, maximumDepth: 8, tooDeep: "nested deeper than a manifest nests")
        let root: Member
        do {
            root = Member(try reader.document(), path: "")
        } catch {
            throw SchemaArtifact.Invalid(message: "not JSON: \(error.message)")
        }
        let format = try root["format"].integer()
        guard format == Self.format else {
            throw SchemaArtifact.Invalid(
                message:
                    "manifest format \(format) is not one this reader knows (\(Self.format)): update skanc or the app")
        }
        let versions = try root["versions"].items { item throws(SchemaArtifact.Invalid) in
            let artifact = try item["artifact"].string()
            guard artifact.utf8.count == 64,
                artifact.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
            else { throw SchemaArtifact.Invalid(message: "\(item.path).artifact is a SHA-256 in lowercase hex") }
            return Published(
                version: try item["version"].integer(in: 0...Int(Int32.max)), artifact: artifact,
                publishedAt: try item["published_at"].integer(),
                liveSince: item["live_since"].isNull ? nil : try item["live_since"].integer(),
                retiredAt: item["retired_at"].isNull ? nil : try item["retired_at"].integer())
        }
        let listed = Set(versions.map(\.version))
        guard listed.count == versions.count else {
            throw SchemaArtifact.Invalid(message: "versions lists a version twice")
        }
        func listedVersion(_ node: Member) throws(SchemaArtifact.Invalid) -> Int {
            let version = try node.integer()
            guard listed.contains(version) else {
                throw SchemaArtifact.Invalid(
                    message: "\(node.path) names version \(version), which versions does not list")
            }
            return version
        }
        let rollout: (Int, Int)? =
            root["rollout"].isNull
            ? nil
            : (try listedVersion(root["rollout"]["version"]), try root["rollout"]["percent"].integer(in: 1...99))
        self.init(
            appID: try root["app_id"].string(), serial: try root["serial"].integer(in: 0...Int(Int32.max)),
            issuedAt: try root["issued_at"].integer(),
            live: root["live"].isNull ? nil : try listedVersion(root["live"]), rollout: rollout,
            revoked: try root["revoked"].items { item throws(SchemaArtifact.Invalid) in try listedVersion(item) },
            versions: versions)
        guard AppStoreID.isValid(appID) else {
            throw SchemaArtifact.Invalid(message: "app_id is an App Store ID (digits)")
        }
    }
}
