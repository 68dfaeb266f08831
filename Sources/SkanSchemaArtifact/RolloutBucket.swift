import SkanCrypto

/// Who is in a rollout: a stable bucket per install (0-9,999, from the SHA-256 of its ID), inside a share of
/// `percent` when below `percent` x 100. The same install stays in or out as the share grows.
public enum RolloutBucket {
    /// The install's bucket, 0..<10,000.
    public static func bucket(installID: String) -> Int {
        let digest = SHA256.hash(Array(installID.utf8))
        let number = digest.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        return number % 10_000
    }

    /// Whether the install is inside a rollout to `percent` of installs.
    public static func isInside(installID: String, percent: Int) -> Bool {
        bucket(installID: installID) < percent * 100
    }
}

extension SchemaManifest {
    /// The version an install uses under this manifest: the version in rollout when the install's bucket is
    /// inside its share and it is not revoked, else the live version; nil when nothing is live. Apps and
    /// `skanc simulate --schedule` choose by this one rule.
    public func version(forInstall installID: String) -> Int? {
        if let rollout, !revoked.contains(rollout.version),
            RolloutBucket.isInside(installID: installID, percent: rollout.percent)
        {
            return rollout.version
        }
        return live
    }
}
