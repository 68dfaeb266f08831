import Foundation
import SkanCommandLine
import SkanCompiler
import SkanCore
import SkanFiles
import SkanPostbacks
import SkanSchema

/// `skanc simulate SCHEMA JOURNEY [--format text|jsonl]`: the reference semantics over a journey.
enum SimulateCommand {
    /// What `--format` takes.
    enum Format: String, CaseIterable {
        case text, jsonl
    }

    static let format = ChoiceOption<Format>(
        "--format", placeholder: "FORMAT", default: .text,
        help: "text or jsonl.")
    static let postbacks = CommandOption.flag(
        "--postbacks", help: "Write the postbacks Apple would send instead (the options below go with it).")
    static let users = IntegerOption(
        "--users", placeholder: "N", range: 1...1_000_000, default: 1,
        help: "Run N users, 1 to 1000000 (past the first, each keeps each journey line with probability 1/2).")
    static let seed = IntegerOption(
        "--seed", placeholder: "S", range: 0...Int.max, default: 1,
        help: "The seed of the random choices, a whole number.")
    static let tiers = ListOption<(tier: PostbackDataTier, share: Double)>(
        "--tiers", placeholder: "MIX", default: "3:1", items: "TIER:SHARE pairs, like 0:0.2,2:0.3,3:0.5",
        unique: true, help: "Each postback data tier's share: 2:0.5,3:0.5."
    ) { item in
        let pair = item.split(separator: ":", omittingEmptySubsequences: false)
        guard pair.count == 2, let tier = Int(pair[0]).flatMap(PostbackDataTier.init(rawValue:)) else {
            return .failure(ListItemRefusal("a tier is 0, 1, 2 or 3"))
        }
        guard let share = Double(pair[1]), share >= 0, share.isFinite else {
            return .failure(ListItemRefusal("a share is a number of at least 0"))
        }
        return .success((tier, share))
    }
    static let signWith = CommandOption.text(
        "--sign-with", placeholder: "KEY.pem",
        help: "Sign the postbacks with a P-256 test key (PEM), as Apple signs real ones, and print its public key "
            + "for 'skanc postbacks --public-key'. Test keys only: the signing is not constant-time.")
    static let framework = ChoiceOption<SyntheticPostbacks.Options.AttributionFramework>(
        "--framework", placeholder: "FRAMEWORK", default: .skAdNetwork,
        help: "skadnetwork (SKAdNetwork 4.0 JSON lines) or adattributionkit (JWS stanzas, kid skanc-test/1).")
    static let campaigns = IntegerOption(
        "--campaigns", placeholder: "N", range: 1...9000,
        help: "Draw each user's campaign (four-digit source identifier) from N, 1 to 9000 (default: one of its own "
            + "per user).")
    static let app = IntegerOption(
        "--app", placeholder: "APP_ID", range: 1...Int.max,
        help: "The App Store ID the postbacks are for: app-id, or advertised-item-identifier in AdAttributionKit "
            + "(default: \(SyntheticPostbacks.Options().appID)).")
    static let truth = CommandOption.text(
        "--truth", placeholder: "FILE", help: "Write what each postback stands for to FILE (above).")
    static let mix = CommandOption.text(
        "--mix", placeholder: "FILE",
        help: "Draw users from the journeys, networks and campaigns of a mix file (below) instead of one JOURNEY; "
            + "with --postbacks.")

    static let command = Command(
        name: "simulate",
        summary: "Run a schema over a journey of events and hours, and show what the updater would send.",
        operands: "SCHEMA JOURNEY [--postbacks [--schedule FILE]] | SCHEMA --mix FILE --postbacks",
        options: [
            format, postbacks, users, seed, tiers, signWith, framework, campaigns, app, truth, mix, schedule, days,
        ],
        discussion: """
            Runs the schema's reference semantics over JOURNEY (- for standard input): JSON lines in hour order,
            each one of
              {"hour": 0.1, "event": "sign_up"}
              {"hour": 3.5, "event": "purchase", "value": 4.99}    a value event, with its amount
              {"hour": 5, "set": {"paymentTier": "medium"}}         a field the app sets
              {"hour": 50}                                          the app opens: evaluate only
            (hours since first launch; blank lines and '#' comments are skipped; a '#' comment may end a line).
            For each line it prints what the updater would do: the window (1 until hour 48, 2 until 168, 3 until
            840, none after), the fine value, coarse value and lock, whether it sends (not when the window already
            has these values or is locked, nor where a 'nothing' rule holds: coarse value "nothing" in the table,
            null and "sends": false in JSON), and each field's case. With --format jsonl, one object per line:
              {"line": N, "hour": H, "window": 1|2|3|null, "fine_value": V, "coarse_value": "low|medium|high"|null,
               "sends": bool, "lock": bool, "sent": bool, "state": {FIELD: CASE, ...}}

            A line that cannot be used gets an error with its line number and nothing of it is applied:
            journey-json (not a JSON object of hour, event, value and set), journey-hour (hours going back),
            journey-event (an event the schema does not declare), journey-value (a value on a counted event, or
            none on a value event), journey-set (a field that is derived, or a case it does not have).

            With --postbacks, writes instead the postbacks Apple would send: for each user and window, the values
            last sent in the window (a locked window keeps what it locked with), as the user's postback data tier
            shows them (skanc preview says what each tier carries), with random transaction and source
            identifiers; no postback for a later window without an update, none at all after the first at tier 0.
            --truth FILE writes what each postback stands for, as ground truth for 'skanc report', one JSON
            object per postback line:
              {"line": N, "user": U, "tier": 0-3, "window": 1-3, "campaign": "5239", "source_identifier": "52",
               "fine_value": V|null, "coarse_value": "low|medium|high"|null, "amounts": {FIELD: AMOUNT, ...}}
            (amounts: what each derived buckets amount field measured when the values were set), and the
            postback's "ad_network_id" and "framework".

            --mix FILE shapes a studio's trial in one run (Simulations/GameTrial/mix.json is one):
              {"journeys": [{"file": "browser.jsonl", "weight": 95.4, "keep": 0.5},
                            {"file": "payer.jsonl", "weight": 4.6, "keep": 1}],
               "networks": [{"ad_network_id": "one.skadnetwork", "campaigns": 12, "weight": 2}],
               "adattributionkit": 0.15, "tiers": {"3": 0.5, "2": 0.5}}
            Each user picks a journey by weight (files relative to the mix file) and keeps each of its lines with
            probability keep (default 0.5; 1 runs it whole, so a payer journey's weight is the payers' share);
            picks a network by weight and one of its campaigns (1 to 900, sized 1, 1/2, 1/3, ... of the
            network's users); a tier (without "tiers", by the campaign's expected installs: 2000 or more mostly
            tier 3, under 100 tiers 0-1; Apple publishes no thresholds, this is a model); and AdAttributionKit
            with the given share. --tiers, --campaigns and --framework are the mix's to give. Identifiers never
            repeat within a run; give each run its own --seed.

            --schedule FILE changes the schema over the air while users install (SCHEMA is the one the app
            bundles): JSON lines in day order, each one step of 'skanc publish' (files relative to the schedule):
              {"day": 0, "publish": "v1.skan"}                   {"day": 5, "rollout": 100}
              {"day": 3, "publish": "v2.skan", "rollout": 10}    {"day": 6, "rollback": true}
              {"day": 8, "revoke": 2}
            Every step passes the gate 'skanc publish' runs, or nothing is written. Users install at random hours
            of --days days; half the devices hold the manifest of that hour, the others one fetched up to three
            days before (offline); a conversion keeps the version it started with for its three windows; with
            --framework adattributionkit one user in four re-engages 1 to 20 days later, with the version of that
            day. Each truth line adds "schema_version" and "conversion_type" ("download" or "re-engagement").
            """,
        exitStatus: """
            0 every line simulated, 1 a bad line (or a schema error, or an unreadable journey), 64 bad \
            usage.
            """,
        run: run
    )

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(UsageError) -> ExitStatus {
        if let mixPath = arguments[mix] {
            if arguments.has(schedule) {
                throw UsageError(message: "--schedule runs one JOURNEY, not a mix")
            }
            return try runMix(mixPath, arguments, context)
        }
        if let schedulePath = arguments[schedule] {
            return try runSchedule(schedulePath, arguments, context)
        }
        if arguments.has(days) {
            throw UsageError(message: "--days goes with --schedule")
        }
        guard arguments.positionals.count == 2 else {
            throw UsageError(message: "name a schema and a journey file (or - for standard input)")
        }
        let path = arguments.positionals[1]
        try context.refuseOutput(
            arguments[truth],
            over: [(arguments.positionals[0], "the schema itself"), (path, "the journey it reads")]
                + (arguments[signWith].map { [($0, "the signing key it reads")] } ?? []),
            what: "the truth")
        guard let schema = SchemaInput.compileAndReport(arguments.positionals[0], context).schema else {
            return .failure
        }
        guard let journey = context.read(path, what: "the journey", limit: .journey) else { return .failure }
        if arguments.has(postbacks) {
            return try writePostbacks(schema: schema, journey: journey, path: path, arguments: arguments, context)
        }
        let simulation = JourneySimulation(schema: schema, journey: journey)
        context.standard(
            arguments.value(format) == .jsonl ? simulation.jsonLines : simulation.text,
            terminator: "")
        return context.diagnostics(simulation.diagnostics, path: path == "-" ? "<stdin>" : path)
    }

    static func writePostbacks(
        schema: Schema, journey: [UInt8], path: String, arguments: ParsedArguments, _ context: CommandContext
    )
        throws(UsageError) -> ExitStatus
    {
        guard let options = try postbackOptions(arguments, context) else { return .failure }
        announceKey(options, frameworks: [options.framework], context)
        // A bad journey line writes nothing: the journey is read once before any postback is made.
        let journeyCheck = JourneySimulation(schema: schema, journey: journey)
        let status = context.diagnostics(journeyCheck.diagnostics, path: path == "-" ? "<stdin>" : path)
        guard status == .success else { return status }
        return stream(schema: schema, arguments: arguments, context) { emit in
            _ = SyntheticPostbacks.generate(schema: schema, journey: journey, options: options, emit: emit)
        }
    }

    /// `--mix FILE`: users drawn from the mix's journeys, networks and campaigns.
    static func runMix(_ mixPath: String, _ arguments: ParsedArguments, _ context: CommandContext) throws(UsageError)
        -> ExitStatus
    {
        guard arguments.positionals.count == 1, arguments.has(postbacks) else {
            throw UsageError(
                message: "--mix writes postbacks: skanc simulate SCHEMA --mix FILE --postbacks (no JOURNEY operand)")
        }
        for option in [tiers.option, campaigns.option, framework.option] where arguments.has(option) {
            throw UsageError(
                message: "\(option.name) is the mix file's to give; leave it out with --mix")
        }
        try context.refuseOutput(
            arguments[truth], over: [(arguments.positionals[0], "the schema itself"), (mixPath, "the mix it reads")],
            what: "the truth")
        guard let schema = SchemaInput.compileAndReport(arguments.positionals[0], context).schema else {
            return .failure
        }
        guard let mixBytes = context.read(mixPath, what: "the mix", limit: .mix) else { return .failure }
        let mix: SimulationMix
        do {
            mix = try SimulationMix(json: mixBytes)
        } catch {
            return context.diagnostics([.error(.mixInvalid, error.message, at: nil)], path: mixPath)
        }
        let directory = URL(fileURLWithPath: mixPath).deletingLastPathComponent()
        var journeys: [[UInt8]] = []
        var paths: [String] = []
        for journey in mix.journeys {
            let path = journey.file.hasPrefix("/") ? journey.file : directory.appendingPathComponent(journey.file).path
            guard let bytes = context.read(path, what: "a journey of the mix", limit: .journey) else {
                return .failure
            }
            journeys.append(bytes)
            paths.append(path)
        }
        // A bad line in any journey writes nothing.
        var status = ExitStatus.success
        for (journey, path) in zip(journeys, paths) {
            let check = JourneySimulation(schema: schema, journey: journey)
            if context.diagnostics(check.diagnostics, path: path) != .success { status = .failure }
        }
        guard status == .success else { return status }
        guard let options = try postbackOptions(arguments, context) else { return .failure }
        announceKey(
            options, frameworks: mix.adAttributionKit > 0 ? [.skAdNetwork, .adAttributionKit] : [.skAdNetwork], context)
        return stream(schema: schema, arguments: arguments, context) { emit in
            _ = SyntheticPostbacks.generate(schema: schema, mix: mix, journeys: journeys, options: options, emit: emit)
        }
    }

    /// The options the command line gives postbacks; nil when the signing key cannot be read (said).
    static func postbackOptions(
        _ arguments: ParsedArguments, _ context: CommandContext
    ) throws(UsageError) -> SyntheticPostbacks.Options? {
        var options = SyntheticPostbacks.Options()
        if arguments.has(users), let count = arguments[users] { options.users = count }
        if arguments.has(seed), let value = arguments[seed] { options.seed = UInt64(value) }
        if arguments.has(tiers), let mix = try arguments.items(tiers) {
            var shares: [PostbackDataTier: Double] = [:]
            for (tier, share) in mix {
                guard shares[tier] == nil else {
                    throw UsageError(message: "--tiers gives tier \(tier.rawValue) twice")
                }
                shares[tier] = share
            }
            guard shares.values.reduce(0, +) > 0 else {
                throw UsageError(message: "--tiers needs a share above 0")
            }
            options.tiers = shares
        }
        if let keyPath = arguments[signWith] {
            guard let bytes = context.read(keyPath, what: "the signing key", limit: .key) else { return nil }
            guard let key = SyntheticPostbacks.SigningKey(pem: String(decoding: bytes, as: UTF8.self)) else {
                _ = context.diagnostics(
                    [
                        .error(
                            .signingKeyInvalid, "not a P-256 private key in PEM (EC PRIVATE KEY or PRIVATE KEY)",
                            at: nil)
                    ],
                    path: keyPath)
                return nil
            }
            options.signingKey = key
        }
        options.framework = arguments.value(framework)
        if let count = arguments[campaigns] { options.campaigns = count }
        if let id = arguments[app] { options.appID = id }
        return options
    }

    /// Says which public key verifies what `options` signs, for `--public-key`.
    static func announceKey(
        _ options: SyntheticPostbacks.Options, frameworks: [SyntheticPostbacks.Options.AttributionFramework],
        _ context: CommandContext
    ) {
        guard let key = options.signingKey else { return }
        for framework in frameworks {
            let kind = framework == .skAdNetwork ? "skadnetwork" : "jws:\(SyntheticPostbacks.keyIdentifier)"
            context.error(
                "signed with the key whose public key is \(kind)=\(key.publicKeyBase64) (for skanc postbacks --public-key)"
            )
        }
    }

    /// Runs `generate` with an emitter that streams the lines to standard output and their truths to `--truth`.
    static func stream(
        schema: Schema, arguments: ParsedArguments, _ context: CommandContext,
        generate: (_ emit: (String, SyntheticPostbacks.Truth) -> Void) -> Void
    ) -> ExitStatus {
        var truths: FileStream?
        if let truthPath = arguments[truth] {
            do {
                truths = try FileStream(truthPath, outputs: context.outputs)
            } catch {
                return context.diagnostics([error.diagnostic], path: error.path)
            }
        }
        // Streamed, user after user: a million users need the memory of one.
        var pending: [UInt8] = []
        var count = 0
        generate { line, truth in
            count += 1
            pending.append(contentsOf: line.utf8)
            pending.append(0x0A)
            if pending.count >= 1 << 16 {
                context.standardOutput.write(pending)
                pending.removeAll(keepingCapacity: true)
            }
            truths?.write(Self.truthLine(truth, number: count, schema: schema))
        }
        context.standardOutput.write(pending)
        do {
            try truths?.finish()
        } catch {
            return context.diagnostics([error.diagnostic], path: error.path)
        }
        return .success
    }

    /// `--truth`: one JSON object per postback line.
    static func truthLine(_ truth: SyntheticPostbacks.Truth, number: Int, schema: Schema) -> String {
        // In the schema's field order; a field another version has (`--schedule`) after them, by name.
        let named = schema.fields.map(\.name)
        let names = named + truth.amounts.keys.filter { !named.contains($0) }.sorted()
        let amounts = names.compactMap { name in
            truth.amounts[name].map { (ColumnNames.snakeCase(name), JSONValue.number($0)) }
        }
        var members: [(String, JSONValue)] = [
            ("line", .integer(number)), ("user", .integer(truth.user)), ("tier", .integer(truth.tier.rawValue)),
            ("window", .integer(truth.window.number)), ("campaign", .string(truth.campaign)),
            ("source_identifier", .string(truth.sourceIdentifier)),
            ("fine_value", truth.fineValue.map(JSONValue.integer) ?? .null),
            ("coarse_value", .optional(truth.coarseValue?.rawValue)), ("amounts", .object(amounts)),
            ("ad_network_id", .string(truth.adNetworkID)), ("framework", .string(truth.framework.rawValue)),
        ]
        if let version = truth.schemaVersion {
            members += [("schema_version", .integer(version)), ("conversion_type", .string(truth.conversion.rawValue))]
        }
        return JSONValue.object(members).compact() + "\n"
    }
}
