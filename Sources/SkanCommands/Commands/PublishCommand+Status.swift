import SkanCommandLine
import SkanCore
import SkanCrypto
import SkanSchemaArtifact

extension PublishCommand {
    /// `publish status --app APP_ID --from DIR [--key KEY.pem] [--format text|json]`: the manifest in force, its
    /// signature checked when a key is given.
    static func status(
        _ arguments: ParsedArguments, appID: String, _ context: CommandContext
    ) throws(UsageError) -> ExitStatus {
        guard let folder = arguments[from] else {
            throw UsageError(message: "name the folder published into with --from DIR")
        }
        var publicKey: ECDSAPublicKey?
        if let path = arguments[key] {
            guard let read = PublicKeyFile.read(path, context) else { return .failure }
            publicKey = read
        }
        let store = PublishedFolder(root: folder, appID: appID)
        guard let read = store.read(publicKey: publicKey, context) else { return .failure }
        let manifest = read.manifest
        let verified = publicKey != nil
        func state(of version: SchemaManifest.Published) -> String {
            if manifest.revoked.contains(version.version) { return "revoked" }
            if manifest.live == version.version { return "live" }
            if manifest.rollout?.version == version.version { return "rollout \(manifest.rollout!.percent)%" }
            return version.retiredAt == nil ? "published" : "retired"
        }
        if arguments.value(format) == .json {
            let versions = manifest.versions.map { version in
                JSONValue.object([
                    ("version", .integer(version.version)), ("state", .string(state(of: version))),
                    ("artifact", .string(version.artifact)),
                    ("published_at", .string(UTCTime.iso8601(version.publishedAt))),
                    ("live_since", .optional(version.liveSince.map(UTCTime.iso8601))),
                    ("retired_at", .optional(version.retiredAt.map(UTCTime.iso8601))),
                ])
            }
            let rollout: JSONValue =
                manifest.rollout.map {
                    .object([("version", .integer($0.version)), ("percent", .integer($0.percent))])
                } ?? .null
            context.standard(
                JSONValue.object([
                    ("app_id", .string(appID)), ("serial", .integer(manifest.serial)),
                    ("signature_verified", .bool(verified)), ("live", manifest.live.map(JSONValue.integer) ?? .null),
                    ("rollout", rollout), ("revoked", .array(manifest.revoked.map(JSONValue.integer))),
                    ("versions", .array(versions)),
                ]).rendered())
            return .success
        }
        var text = "app \(appID): manifest serial \(manifest.serial)"
        text += verified ? ", signature verified\n" : " (signature not checked: give --key)\n"
        text += "live: " + (manifest.live.map { "version \($0)" } ?? "none") + "\n"
        if let rollout = manifest.rollout { text += "rollout: version \(rollout.version) to \(rollout.percent)%\n" }
        for version in manifest.versions {
            text +=
                "  version \(version.version): \(state(of: version)), published \(UTCTime.iso8601(version.publishedAt))"
            text += version.retiredAt.map { ", retired \(UTCTime.iso8601($0))" } ?? ""
            text += "\n"
        }
        context.standard(text, terminator: "")
        return .success
    }
}
