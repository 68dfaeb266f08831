import Foundation
import SkanCommandLine
import SkanCompiler
import SkanCore
import SkanCrypto
import SkanSchema
import SkanSchemaArtifact
import SkanSchemaTools

/// `skanc publish`: schemas over the air. Publishes a schema's artifact and a signed manifest into a folder any
/// static host serves (`DIR/APP_ID/schemas/<sha256>.json`, `DIR/APP_ID/manifest.jws`), changes a rollout, rolls
/// back or revokes; `publish status` reads the manifest back. The gate and the manifest's next state are
/// `Publication`'s; this reads the files, signs and writes.
enum PublishCommand {
    static let app = CommandOption.text("--app", placeholder: "APP_ID", help: "The app's App Store ID (digits).")
    static let to = CommandOption.text("--to", placeholder: "DIR", help: "The folder to publish into.")
    static let from = CommandOption.text("--from", placeholder: "DIR", help: "The folder published into (status).")
    static let key = CommandOption.text(
        "--key", placeholder: "KEY.pem",
        help: "The P-256 private key, signed with through openssl; with --signer, the public key.")
    static let signer = CommandOption.text(
        "--signer", placeholder: "COMMAND",
        help: "Sign by running COMMAND (through /bin/sh): the bytes to sign on its input, the signature (DER or "
            + "the 64 bytes of r and s) on its output. For keys in a KMS or an HSM.")
    static let testSigner = CommandOption.flag(
        "--test-signer", help: "Sign with skanc's own arithmetic, which is not constant-time: for test keys only.")
    static let rollout = IntegerOption(
        "--rollout", placeholder: "PERCENT", range: 0...100,
        help: "With SCHEMA, publish it to this share of installs (1-100); alone, change the rollout's share.")
    static let rollback = CommandOption.flag("--rollback", help: "Make the previous live version live again.")
    static let revoke = IntegerOption(
        "--revoke", placeholder: "VERSION", range: 0...Int.max,
        help: "Take a version from devices (they return to the live one).")
    /// How `publish status` prints.
    enum StatusFormat: String, CaseIterable, Sendable { case text, json }
    static let format = ChoiceOption<StatusFormat>(
        "--format", placeholder: "FORMAT", default: .text,
        help: "status: text or json.")

    static let command = Command(
        name: "publish",
        summary: "Publish a schema over the air: a signed manifest and the schema's artifact, gated.",
        operands: "[SCHEMA | status]",
        options: [app, to, key, signer, testSigner, rollout, rollback, revoke, from, format],
        discussion: """
            skanc publish SCHEMA --app APP_ID --to DIR --key KEY.pem [--rollout PERCENT]
            skanc publish --app APP_ID --to DIR --key KEY.pem (--rollout PERCENT | --rollback | --revoke VERSION)
            skanc publish status --app APP_ID --from DIR [--key KEY.pem] [--format text|json]

            Writes DIR/APP_ID/schemas/<sha256>.json (the artifact, named by the SHA-256 of its bytes, never
            rewritten) and DIR/APP_ID/manifest.jws (ES256: the live version, the version in rollout and its share,
            the revoked versions, every version published, under a serial number that only grows). Any static host
            serves the folder; so does 'skanc serve --schemas DIR'.

            The gate: a schema is published only if it checks clean, is a valid next version of the live one (as
            'check --against') and can be told apart from every version live, in rollout or retired less than 41
            days ago (as 'check --live-together'); a refused publish writes nothing. The manifest in DIR must verify
            with the key given. Signing goes through openssl (KEY.pem a private key), or --signer COMMAND with
            KEY.pem the public key; --test-signer signs in-process, for test keys only.
            docs/RemoteSchemas.md has the whole story.
            """,
        exitStatus: "0 published (or nothing to change), 1 refused by the gate or a file that cannot be read, "
            + "signed or written, 64 bad usage.",
        run: run
    )

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(UsageError) -> ExitStatus {
        guard let appID = arguments[app] else {
            throw UsageError(message: "name the app with --app APP_ID")
        }
        guard AppStoreID.isValid(appID) else {
            throw UsageError(message: "--app is the app's App Store ID (digits), not '\(appID)'")
        }
        if arguments.positionals == ["status"] { return try status(arguments, appID: appID, context) }
        guard arguments.positionals.count <= 1 else {
            throw UsageError(message: "publish takes one schema at a time")
        }
        guard let folder = arguments[to] else {
            throw UsageError(message: "name the folder to publish into with --to DIR")
        }
        let action = try Self.action(arguments)
        let signing = try Signing(arguments, context)
        let store = PublishedFolder(root: folder, appID: appID)
        guard let state = store.read(publicKey: signing.publicKey, context) else { return .failure }
        let resolved: Publication.Action
        switch action {
        case .publish(let path, let rollout):
            guard let (schema, version) = SchemaInput.compileWithVersion(path, context) else { return .failure }
            resolved = .publish(schema, versionAt: version, rollout: rollout)
        case .other(let other): resolved = other
        }
        let plan = Publication.plan(
            resolved, manifest: state.manifest, schemas: state.schemas, now: Int(Date().timeIntervalSince1970))
        let shown =
            if case .publish(let path, _) = action { path == "-" ? "<stdin>" : path } else { store.manifestPath }
        context.diagnostics(plan.diagnostics, path: shown, source: nil)
        guard !plan.diagnostics.hasErrors else {
            context.error("nothing was published")
            return .failure
        }
        guard let manifest = plan.manifest else {
            context.error(plan.summary)
            return .success
        }
        guard let signed = signing.sign(manifest, context) else { return .failure }
        guard store.write(artifact: plan.artifact, manifest: signed, context) else { return .failure }
        context.error("\(plan.summary) (manifest serial \(manifest.serial))")
        return .success
    }

    /// What the command line asks for, before the schema is compiled.
    enum Requested {
        case publish(path: String, rollout: Int?)
        case other(Publication.Action)
    }

    static func action(_ arguments: ParsedArguments) throws(UsageError) -> Requested {
        let percent = arguments[rollout]
        let version = arguments[revoke]
        if let path = arguments.positionals.first {
            guard !arguments.has(rollback), version == nil else {
                throw UsageError(message: "--rollback and --revoke take no schema")
            }
            if let percent, percent == 0 {
                throw UsageError(message: "publish a schema to 1 to 100 percent of installs")
            }
            return .publish(path: path, rollout: percent)
        }
        let chosen = [percent != nil, arguments.has(rollback), version != nil].filter { $0 }.count
        guard chosen == 1 else {
            throw UsageError(
                message: "name a schema to publish, or one of --rollout PERCENT, --rollback, --revoke VERSION")
        }
        if let percent { return .other(.rollout(percent)) }
        if let version { return .other(.revoke(version)) }
        return .other(.rollback)
    }
}
