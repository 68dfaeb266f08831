import SkanCompiler
public import SkanCore
public import SkanSchema
public import SkanSchemaArtifact

/// `skanc publish`: the next manifest and artifact from the current ones, or the diagnostics that refuse the
/// change. The gate: a schema is published only if it is a valid next version of the live one
/// (`VersionGate`, as `check --against`) and its postbacks can be told apart from those of every version that
/// can still send one (`LiveVersions`, as `check --live-together`): live, in rollout, or retired less than
/// `postbackLifetime` ago. Pure: the command reads the files, signs and writes.
public enum Publication {
    /// How long after a version stops being used its postbacks can still arrive: the third window ends on day 35,
    /// and its postback can come 144 hours later.
    public static let postbackLifetime = 41 * 86_400

    /// What to change.
    public enum Action: Sendable {
        /// Publish `schema` (its version number at `versionAt`), live or to `rollout` percent of installs.
        case publish(Schema, versionAt: SourceLocation, rollout: Int?)
        /// Change the share of the version in rollout: 100 makes it live, 0 stops the rollout.
        case rollout(Int)
        /// Make the previous live version live again.
        case rollback
        /// Take `version` from devices.
        case revoke(Int)
    }

    /// The outcome: the next manifest and a new artifact to write, or the diagnostics that refuse the change.
    public struct Plan: Sendable {
        /// The manifest to sign and write; nil when refused or when nothing changes.
        public var manifest: SchemaManifest?
        /// The artifact file to write (its name: the SHA-256 of its bytes), when the action publishes a new one.
        public var artifact: (name: String, bytes: [UInt8])?
        /// Why the change is refused (errors) or what to look at (warnings).
        public var diagnostics: [Diagnostic] = []
        /// What the change does, for the command to print.
        public var summary: String = ""
    }

    /// The plan for `action` on `manifest`, whose versions' schemas are `schemas` (read from their artifacts), at
    /// `now` (Unix seconds).
    public static func plan(_ action: Action, manifest: SchemaManifest, schemas: [Int: Schema], now: Int) -> Plan {
        var next = manifest
        next.serial += 1
        next.issuedAt = now
        var plan = Plan()
        switch action {
        case .publish(let schema, let versionAt, let rollout):
            return publish(
                schema, versionAt: versionAt, rollout: rollout, manifest: manifest, schemas: schemas, now: now)
        case .rollout(let percent):
            guard let current = manifest.rollout else {
                plan.diagnostics = [.noRollout()]
                return plan
            }
            if percent >= 100 {
                promote(current.version, in: &next, now: now)
                plan.summary = "version \(current.version) is live (was at \(current.percent)%)"
            } else if percent <= 0 {
                next.rollout = nil
                retire(current.version, in: &next, now: now)
                plan.summary =
                    "the rollout of version \(current.version) is stopped; version \(manifest.live.map(String.init) ?? "none") stays live"
            } else {
                next.rollout = (current.version, percent)
                plan.summary = "version \(current.version) goes to \(percent)% of installs (was \(current.percent)%)"
            }
        case .rollback:
            let previous = manifest.versions.filter {
                $0.liveSince != nil && $0.version != manifest.live && !manifest.revoked.contains($0.version)
            }
            .max { $0.liveSince! < $1.liveSince! }
            guard let previous, let current = manifest.live else {
                plan.diagnostics = [.nothingToRollBackTo()]
                return plan
            }
            if let rollout = manifest.rollout { retire(rollout.version, in: &next, now: now) }
            next.rollout = nil
            promote(previous.version, in: &next, now: now)
            plan.summary = "version \(previous.version) is live again (version \(current) retired)"
        case .revoke(let version):
            guard manifest.published(version) != nil else {
                plan.diagnostics = [.notPublished(version)]
                return plan
            }
            guard manifest.live != version else {
                plan.diagnostics = [.revokingLive(version)]
                return plan
            }
            guard !manifest.revoked.contains(version) else {
                plan.summary = "version \(version) is revoked already"
                return plan
            }
            if manifest.rollout?.version == version { next.rollout = nil }
            retire(version, in: &next, now: now)
            next.revoked.append(version)
            plan.summary = "version \(version) is revoked: devices that use it return to the live version"
        }
        plan.manifest = next
        return plan
    }

    private static func publish(
        _ schema: Schema, versionAt: SourceLocation, rollout: Int?, manifest: SchemaManifest, schemas: [Int: Schema],
        now: Int
    ) -> Plan {
        var plan = Plan()
        let artifact = SchemaArtifact(schema: schema, appID: manifest.appID)
        let bytes = artifact.bytes
        let name = artifact.fileName
        if let published = manifest.published(schema.version) {
            guard published.artifact == name else {
                plan.diagnostics = [.versionPublished(schema.version, at: versionAt)]
                return plan
            }
            guard rollout == nil || rollout == 100 else {
                plan.diagnostics = [.versionPublished(schema.version, at: versionAt)]
                return plan
            }
            guard manifest.live != schema.version else {
                plan.summary = "version \(schema.version) is live already: nothing to write"
                return plan
            }
        }
        // The gate: a valid next version of the live one, told apart from every version that can still send.
        if let live = manifest.live, let liveSchema = schemas[live] {
            plan.diagnostics += VersionGate.diagnostics(old: liveSchema, new: schema, versionAt: versionAt)
        }
        let sending = manifest.versions.filter { published in
            published.version != schema.version
                && (published.version == manifest.live || published.version == manifest.rollout?.version
                    || (published.retiredAt.map { now - $0 < postbackLifetime } ?? false))
        }
        let nowhere = SourceLocation(line: 0, column: 0, offset: 0)
        let together =
            sending.compactMap { published in
                schemas[published.version].map { ("version \(published.version)", $0, nowhere) }
            } + [("the schema", schema, versionAt)]
        plan.diagnostics += LiveVersions.diagnostics(of: together).map(\.diagnostic)
        guard !plan.diagnostics.hasErrors else { return plan }
        var next = manifest
        next.serial += 1
        next.issuedAt = now
        if next.published(schema.version) == nil {
            next.versions.append(.init(version: schema.version, artifact: name, publishedAt: now))
            plan.artifact = (name, bytes)
        }
        if let rollout, rollout < 100 {
            if let replaced = manifest.rollout, replaced.version != schema.version {
                retire(replaced.version, in: &next, now: now)
            }
            next.rollout = (schema.version, rollout)
            plan.summary = "version \(schema.version) goes to \(rollout)% of installs"
        } else {
            promote(schema.version, in: &next, now: now)
            plan.summary = "version \(schema.version) is live"
        }
        plan.manifest = next
        return plan
    }

    /// `version` becomes live; the live version and any other version in rollout are retired now.
    private static func promote(_ version: Int, in manifest: inout SchemaManifest, now: Int) {
        if let live = manifest.live, live != version { retire(live, in: &manifest, now: now) }
        if let rollout = manifest.rollout, rollout.version != version {
            retire(rollout.version, in: &manifest, now: now)
        }
        manifest.rollout = nil
        manifest.live = version
        if let index = manifest.versions.firstIndex(where: { $0.version == version }) {
            manifest.versions[index].liveSince = now
            manifest.versions[index].retiredAt = nil
        }
    }

    private static func retire(_ version: Int, in manifest: inout SchemaManifest, now: Int) {
        if let index = manifest.versions.firstIndex(where: { $0.version == version }) {
            manifest.versions[index].retiredAt = now
        }
    }
}
