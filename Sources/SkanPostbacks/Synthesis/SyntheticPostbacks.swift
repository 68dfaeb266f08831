public import SkanCore
import SkanCrypto
public import SkanSchema

/// The postbacks Apple would send for journeys (`skanc simulate --postbacks`): for each user and window, the
/// values the updater last sent in the window (a locked window keeps what it locked with), shown as the user's
/// postback data tier allows (`PostbackDataTier`), as SKAdNetwork 4.0 or AdAttributionKit JSON lines, signed
/// with a test key when one is given, as Apple signs real ones. A window without an update sends no postback
/// after the first.
public struct SyntheticPostbacks: Sendable {
    /// What the journeys do not say.
    public struct Options: Sendable {
        /// How many users run the journey; past the first, each keeps each journey line with probability 1/2.
        public var users = 1
        /// The seed of every random choice (identifiers, tiers, the users' journeys).
        public var seed: UInt64 = 1
        /// Each tier's share of users (normalized); tier 3 only by default.
        public var tiers: [PostbackDataTier: Double] = [.three: 1]
        /// The ad network the postbacks go to.
        public var adNetworkID = "example123.skadnetwork"
        /// The advertised app's App Store ID.
        public var appID = 525_463_029
        /// A test key to sign with (`--sign-with`); unsigned without one.
        public var signingKey: SigningKey?
        /// SKAdNetwork 4.0 (`attribution-signature`) or AdAttributionKit (a JWS, `kid` `skanc-test/1`).
        public var framework: AttributionFramework = .skAdNetwork
        /// How many campaigns (four-digit source identifiers) the users come from, each user from one drawn at
        /// random; nil gives every user a random source identifier of its own.
        public var campaigns: Int? = nil

        /// The frameworks postbacks can be written for.
        public enum AttributionFramework: String, CaseIterable, Sendable {
            case skAdNetwork = "skadnetwork"
            case adAttributionKit = "adattributionkit"
        }

        /// The defaults: one user at tier 3, unsigned.
        public init() {}
    }

    /// A P-256 private key for signing synthetic postbacks. For test keys only: the arithmetic is not
    /// constant-time.
    public struct SigningKey: Sendable {
        let key: ECDSASigningKey

        /// A key from PEM (`EC PRIVATE KEY` or `PRIVATE KEY`, P-256); nil otherwise. Other blocks are skipped:
        /// `openssl ecparam -genkey` writes an `EC PARAMETERS` block first.
        public init?(pem: String) {
            guard let der = PEM.der(pem, labelEndingWith: "PRIVATE KEY"), let key = ECDSASigningKey(der: der) else {
                return nil
            }
            self.key = key
        }

        /// The public key as `--public-key skadnetwork=BASE64` takes it (DER SubjectPublicKeyInfo).
        public var publicKeyBase64: String { Base64URL.encode(key.publicKey.der) }
    }

    /// The `kid` of synthetic AdAttributionKit postbacks: `--public-key jws:skanc-test/1=BASE64` reads them.
    public static let keyIdentifier = "skanc-test/1"

    /// The JSON lines, one postback each.
    public let lines: [String]
    /// What each line stands for, line by line: the ground truth a report on the lines can be checked against.
    public let truths: [Truth]

    /// The truth behind one synthetic postback.
    public struct Truth: Sendable {
        /// The user (0-based) and the tier drawn for them.
        public var user: Int
        /// The tier drawn for the user.
        public var tier: PostbackDataTier
        /// The window the postback reports on.
        public var window: ConversionWindow
        /// The user's campaign: its four-digit source identifier, and the digits of it the postback shows.
        public var campaign: String
        /// The digits of the campaign the postback shows.
        public var sourceIdentifier: String
        /// The values the postback carries.
        public var fineValue: Int?
        /// The coarse value the postback carries.
        public var coarseValue: CoarseValue?
        /// Per derived `buckets amount` field (by name), the amount measured when the values it carries were set.
        public var amounts: [String: Double]
        /// The ad network the postback goes to.
        public var adNetworkID: String
        /// The framework it comes through.
        public var framework: Options.AttributionFramework
        /// The conversion the postback reports: an install, or (AdAttributionKit) a re-engagement.
        public var conversion: PostbackConversion = .install
        /// The schema version that set the values, when versions change over the run (`--schedule`).
        public var schemaVersion: Int? = nil
    }

    /// What a conversion is, as a postback's `conversion-type` says.
    public enum PostbackConversion: String, Sendable {
        case install = "download"
        case reengagement = "re-engagement"
    }
    /// The journey's bad lines (as `skanc simulate` reports them).
    public let diagnostics: [Diagnostic]

    /// The postbacks of `journey` run through `schema` by `options.users` users.
    public init(schema: Schema, journey: [UInt8], options: Options) {
        var lines: [String] = []
        var truths: [Truth] = []
        diagnostics = Self.generate(schema: schema, journey: journey, options: options) { line, truth in
            lines.append(line)
            truths.append(truth)
        }
        self.lines = lines
        self.truths = truths
    }

    /// The same postbacks, each handed to `emit` with its truth as soon as it is made, user after user: memory
    /// stays that of one user's journey, whatever the number of users. Returns the journey's bad lines.
    public static func generate(
        schema: Schema, journey: [UInt8], options: Options, emit: (_ line: String, _ truth: Truth) -> Void
    ) -> [Diagnostic] {
        var random = SplitMix64(seed: options.seed)
        // Read once; each user runs a subset of the lines read.
        let read = JourneySimulation.read(journey)
        let first = JourneySimulation(schema: schema, lines: read)
        let campaignIDs = campaignIdentifiers(options, random: &random)
        let journeyLineCount = journey.split(separator: 0x0A, omittingEmptySubsequences: false).count
        run(options: options, random: &random, emit: emit) { user, random in
            let simulation: JourneySimulation
            if user == 0 {
                simulation = first
            } else {
                // Another user: the same journey, each line kept with probability 1/2 (its line number kept).
                let kept = (0..<journeyLineCount).map { _ in random.next() % 2 == 0 }
                simulation = JourneySimulation(schema: schema, lines: read.lazy.filter { kept[$0.number - 1] })
            }
            let tier = Self.tier(options.tiers, &random)
            let sourceIdentifier = campaign(of: campaignIDs, random: &random)
            return User(
                simulation: simulation, tier: tier, campaign: sourceIdentifier, adNetworkID: options.adNetworkID,
                framework: options.framework)
        }
        return first.diagnostics
    }

    /// The campaigns `options.campaigns` asks for: distinct four-digit source identifiers; none without it.
    static func campaignIdentifiers(_ options: Options, random: inout SplitMix64) -> [String] {
        let campaigns = (options.campaigns.map { max($0, 1) } ?? 0)
        var campaignIDs: [String] = []
        while campaignIDs.count < min(campaigns, 9000) {
            let id = String(1000 + random.next() % 9000)
            if !campaignIDs.contains(id) { campaignIDs.append(id) }
        }
        return campaignIDs
    }

    /// A user's campaign: one of `campaignIDs`, or one of its own when there are none.
    static func campaign(of campaignIDs: [String], random: inout SplitMix64) -> String {
        campaignIDs.isEmpty
            ? String(1000 + random.next() % 9000) : campaignIDs[Int(random.next() % UInt64(campaignIDs.count))]
    }

    /// One user as drawn: the journey they ran, their tier, campaign, network and framework; with
    /// `--schedule`, the version their conversion used and their re-engagement, when they have one.
    struct User {
        var simulation: JourneySimulation
        var tier: PostbackDataTier
        var campaign: String
        var adNetworkID: String
        var framework: Options.AttributionFramework
        var conversion: PostbackConversion = .install
        var versioned = false
        /// A later conversion of the same user (its own journey, version and tier).
        var reengagement: JourneySimulation? = nil
    }

    /// The postbacks of `options.users` users, each drawn by `draw`.
    static func run(
        options: Options, random: inout SplitMix64, emit: (_ line: String, _ truth: Truth) -> Void,
        draw: (_ user: Int, _ random: inout SplitMix64) -> User
    ) {
        var userOptions = options
        for number in 0..<max(options.users, 1) {
            let drawn = draw(number, &random)
            (userOptions.adNetworkID, userOptions.framework) = (drawn.adNetworkID, drawn.framework)
            var conversions = [drawn]
            if let later = drawn.reengagement {
                var reengaged = drawn
                (reengaged.simulation, reengaged.conversion) = (later, .reengagement)
                conversions.append(reengaged)
            }
            for user in conversions {
                emitConversion(user, number: number, options: userOptions, random: &random, emit: emit)
            }
        }
    }

    /// The postbacks of one conversion: one per window the tier sends, with what it shows.
    static func emitConversion(
        _ user: User, number: Int, options userOptions: Options, random: inout SplitMix64,
        emit: (_ line: String, _ truth: Truth) -> Void
    ) {
        let (simulation, tier, sourceIdentifier) = (user.simulation, user.tier, user.campaign)
        let schema = simulation.schema
        let amountFields = schema.fields.indices.filter { schema.fields[$0].kind == .buckets(.amount) }
        for window in ConversionWindow.allCases {
            let sent = simulation.steps.filter { $0.sent && $0.evaluation.window == window }.last
            guard window == .first || sent != nil, tier.sendsPostback(in: window) else { continue }
            // What the tier shows in this window, decided once for the postback and its truth.
            let carries = tier.carries(in: window)
            let digits = tier.sourceIdentifierDigits(in: window)?.upperBound ?? 2
            let fine = carries.contains(.fineValue) ? sent?.evaluation.fineValue : nil
            let shown = Shown(
                source: String(sourceIdentifier.prefix(digits)), fineValue: fine,
                coarseValue: fine == nil && carries.contains(.coarseValue) ? sent?.evaluation.coarseValue : nil)
            var amounts: [String: Double] = [:]
            for index in amountFields {
                if let sent, let amount = sent.evaluation.measures[index] {
                    amounts[schema.fields[index].name] = amount
                }
            }
            let truth = Truth(
                user: number, tier: tier, window: window, campaign: sourceIdentifier,
                sourceIdentifier: shown.source, fineValue: shown.fineValue, coarseValue: shown.coarseValue,
                amounts: amounts, adNetworkID: user.adNetworkID, framework: user.framework,
                conversion: user.conversion, schemaVersion: user.versioned ? schema.version : nil)
            emit(
                user.framework == .skAdNetwork
                    ? Self.postback(window: window, tier: tier, shown: shown, options: userOptions, random: &random)
                    : Self.stanza(
                        window: window, tier: tier, shown: shown, conversion: user.conversion, options: userOptions,
                        random: &random),
                truth)
        }
    }

    static func tier(_ shares: [PostbackDataTier: Double], _ random: inout SplitMix64) -> PostbackDataTier {
        let total = shares.values.reduce(0, +)
        guard total > 0 else { return .three }
        var draw = Double(random.next() % 1_000_000) / 1_000_000 * total
        for tier in PostbackDataTier.allCases {
            draw -= shares[tier] ?? 0
            if draw < 0 { return tier }
        }
        return PostbackDataTier.allCases.last { (shares[$0] ?? 0) > 0 } ?? .three
    }

    /// What a postback shows of its user's campaign and values, as the tier allows in its window.
    struct Shown {
        var source: String
        var fineValue: Int?
        var coarseValue: CoarseValue?
    }

    /// One SKAdNetwork 4.0 postback; the signed fields in the order `SignatureVerifier` reads them.
    static func postback(
        window: ConversionWindow, tier: PostbackDataTier, shown: Shown, options: Options, random: inout SplitMix64
    ) -> String {
        let carries = tier.carries(in: window)
        let source = shown.source
        let transaction = Self.uuid(&random)
        var members: [(String, JSONValue)] = [
            ("version", .string("4.0")), ("ad-network-id", .string(options.adNetworkID)),
            ("source-identifier", .string(source)), ("app-id", .integer(options.appID)),
            ("transaction-id", .string(transaction)), ("redownload", .bool(false)),
        ]
        let publisher = carries.contains(.sourceAppID) ? 1_234_567_891 : nil
        if let publisher { members.append(("source-app-id", .integer(publisher))) }
        members += [("fidelity-type", .integer(1)), ("did-win", .bool(true))]
        members.append(("postback-sequence-index", .integer(window.postbackSequenceIndex)))
        if let fine = shown.fineValue { members.append(("conversion-value", .integer(fine))) }
        if let coarse = shown.coarseValue { members.append(("coarse-conversion-value", .string(coarse.rawValue))) }
        if let key = options.signingKey?.key {
            // version, ad-network-id, source-identifier, app-id, transaction-id, redownload, [source-app-id],
            // fidelity-type, did-win, postback-sequence-index, joined by U+2063.
            var parts = ["4.0", options.adNetworkID, source, String(options.appID), transaction, "false"]
            if let publisher { parts.append(String(publisher)) }
            parts += ["1", "true", String(window.postbackSequenceIndex)]
            let message = Array(parts.joined(separator: "\u{2063}").utf8)
            members.append(("attribution-signature", .string(Base64URL.encode(key.derSignature(for: message)))))
        }
        return JSONValue.object(members).compact()
    }

    /// One AdAttributionKit stanza: the JWS of the identifiers (signed with the test key, or with an empty
    /// signature), the value outside it.
    static func stanza(
        window: ConversionWindow, tier: PostbackDataTier, shown: Shown, conversion: PostbackConversion = .install,
        options: Options, random: inout SplitMix64
    ) -> String {
        let carries = tier.carries(in: window)
        var payload: [(String, JSONValue)] = [("postback-identifier", .string(Self.uuid(&random)))]
        if carries.contains(.sourceAppID) { payload.append(("publisher-item-identifier", .integer(1_234_567_891))) }
        payload += [
            ("marketplace-identifier", .string("com.apple.AppStore")), ("impression-type", .string("app-impression")),
            ("ad-network-identifier", .string(options.adNetworkID)), ("did-win", .bool(true)),
            ("postback-sequence-index", .integer(window.postbackSequenceIndex)),
            ("conversion-type", .string(conversion.rawValue)),
            ("source-identifier", .string(shown.source)),
            ("advertised-item-identifier", .integer(options.appID)),
        ]
        let header = JSONValue.object([("kid", .string(keyIdentifier)), ("alg", .string("ES256"))]).compact()
        let signingInput =
            Base64URL.encode(Array(header.utf8), url: true) + "."
            + Base64URL.encode(Array(JSONValue.object(payload).compact().utf8), url: true)
        let signature = options.signingKey.map {
            Base64URL.encode($0.key.rawSignature(for: Array(signingInput.utf8)), url: true)
        }
        var members: [(String, JSONValue)] = [("jws-string", .string(signingInput + "." + (signature ?? "")))]
        if let fine = shown.fineValue { members.append(("conversion-value", .integer(fine))) }
        if let coarse = shown.coarseValue { members.append(("coarse-conversion-value", .string(coarse.rawValue))) }
        members.append(("ad-interaction-type", .string("click")))
        if carries.contains(.countryCode) { members.append(("country-code", .string("US"))) }
        return JSONValue.object(members).compact()
    }

    /// A random identifier in UUID form, upper case.
    static func uuid(_ random: inout SplitMix64) -> String {
        let hex = (0..<32).map { _ in String(random.next() % 16, radix: 16, uppercase: true) }.joined()
        let groups = [8, 4, 4, 4, 12]
        var start = hex.startIndex
        return groups.map { count in
            let end = hex.index(start, offsetBy: count)
            defer { start = end }
            return String(hex[start..<end])
        }.joined(separator: "-")
    }
}

extension DiagnosticCode {
    /// `simulate --sign-with`: the file is read, but it is not a P-256 private key in PEM.
    public static let signingKeyInvalid = DiagnosticCode("signing-key-invalid")
    /// `simulate --mix`: the mix file is read, but it is not a mix (`SimulationMix`).
    public static let mixInvalid = DiagnosticCode("mix-invalid")
}
