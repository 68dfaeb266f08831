import SkanCrypto

/// Verifies postback signatures, one line at a time, on whichever thread decodes it (it only reads).
///
/// - SKAdNetwork: the signed string is the version's parameters joined with U+2063 INVISIBLE SEPARATOR in
///   Apple's order, optional ones left out when absent, Booleans as `true`/`false` (StoreKit, "Verifying an
///   install-validation postback", "Combining parameters for SKAdNetwork 3 postbacks" and "… for previous
///   SKAdNetwork postback versions"); the DER signature is `attribution-signature`, base64.
/// - AdAttributionKit: a compact JWS (RFC 7515) signed with ES256 over `header.payload`; the header's `kid`
///   chooses the key (AdAttributionKit, "Verifying a postback").
final class SignatureVerifier: Sendable {
    private let p256: [ECDSAPublicKey]
    private let p192: [ECDSAPublicKey]
    private let jwsKeys: [String: [(key: ECDSAPublicKey, development: Bool)]]
    let allowDevelopment: Bool

    init(_ verification: PostbackVerification) {
        var (p256, p192) = ([ECDSAPublicKey](), [ECDSAPublicKey]())
        var jwsKeys: [String: [(key: ECDSAPublicKey, development: Bool)]] = [:]
        // Added keys are verified as often as Apple's: they get tables too (Apple's have theirs already), each
        // built by the first verification that uses it, as Apple's are.
        let added = verification.additionalKeys.map { added in
            PostbackPublicKey(kind: added.kind, key: added.key.withTable(LazyTable(added.key).table))
        }
        for key in PostbackPublicKey.apple + added {
            switch key.kind {
            case .skadnetwork:
                if key.key.curve === EllipticCurve.p256 { p256.append(key.key) } else { p192.append(key.key) }
            case .jws(let kid, let development):
                jwsKeys[kid, default: []].append((key.key, development))
            }
        }
        // Production keys first: a key given as production for a `kid` outranks a development one.
        (self.p256, self.p192) = (p256, p192)
        self.jwsKeys = jwsKeys.mapValues { keys in keys.filter { !$0.development } + keys.filter(\.development) }
        allowDevelopment = verification.allowDevelopment
    }

    /// The parameters a SKAdNetwork version signs, in order; the optional ones are signed only when present.
    private static func signedKeys(_ version: PostbackRules.SKAdNetworkVersion) -> [(PostbackKey, optional: Bool)] {
        let v2: [(PostbackKey, optional: Bool)] = [
            (.version, false), (.adNetworkID, false), (.campaignID, false), (.appID, false), (.transactionID, false),
            (.redownload, false), (.sourceAppID, true),
        ]
        switch version {
        case .v1: return [(.adNetworkID, false), (.campaignID, false), (.appID, false), (.transactionID, false)]
        case .v2, .v2point1: return v2
        case .v2point2: return v2 + [(.fidelityType, false)]
        case .v3: return v2 + [(.fidelityType, false), (.didWin, false)]
        case .v4:
            return [
                (.version, false), (.adNetworkID, false), (.sourceIdentifier, false), (.appID, false),
                (.transactionID, false), (.redownload, false), (.sourceAppID, true), (.sourceDomain, true),
                (.fidelityType, false), (.didWin, false), (.postbackSequenceIndex, false),
            ]
        }
    }

    /// How many signatures a verifier checks before it uses the tables (`ECDSAPublicKey.signer`), counted over
    /// all its decoders: building the generator's table and a key's (about 47 ms, release build) costs what
    /// about 130 verifications without them cost more than with them (0.4 ms against 0.04 ms). A run that
    /// verifies a few postbacks builds none; a long one builds them early (ski rental).
    static let verificationsBeforeTables = 128

    /// The verifications counted so far, while they are fewer than `verificationsBeforeTables`.
    private let warmUp = VerificationCount()

    /// What a decoder carries from line to line: which SKAdNetwork key signed its previous line, per curve
    /// (tried first on the next line, so a file signed by an added key costs one verification a line, as one
    /// signed by Apple does), how many signatures it has verified, and whether its verifier uses the tables now.
    struct SignerHints {
        var p256 = 0
        var p192 = 0
        var verifications = 0
        var usesTables = false
    }

    /// Counts one verification; whether it uses the tables. Once they are in use a decoder stops counting
    /// (and taking the count's lock).
    private func nextUsesTables(_ hints: inout SignerHints) -> Bool {
        hints.verifications += 1
        if !hints.usesTables { hints.usesTables = warmUp.next() > Self.verificationsBeforeTables }
        return hints.usesTables
    }

    /// A SKAdNetwork line's signature.
    func verifySKAdNetwork(
        version: PostbackRules.SKAdNetworkVersion?, fields: PostbackFields, line: UnsafeBufferPointer<UInt8>,
        scratch: inout [UInt8], hints: inout SignerHints
    ) -> SignatureOutcome {
        guard let version else { return .unsupported }
        guard let signatureCell = fields.value(.attributionSignature, from: .line) else { return .missing }
        // The signature first: most forgeries fail here, before any work on the message.
        var der: [UInt8] = []
        guard signatureCell.span.kind == .string, Self.decodeBase64(signatureCell, line, into: &der, &scratch),
            let (r, s) = DER.signature(der)
        else { return .invalid }
        var message: [UInt8] = []
        message.reserveCapacity(256)
        for (key, optional) in Self.signedKeys(version) {
            guard let cell = fields.value(key, from: .line) else {
                if optional { continue }
                return .invalid
            }
            if !message.isEmpty { message += [0xE2, 0x81, 0xA3] }  // U+2063 INVISIBLE SEPARATOR
            switch cell.span.kind {
            case .string, .number: message += Self.text(cell, line, &scratch)
            case .true: message += Array("true".utf8)
            case .false: message += Array("false".utf8)
            default: return .invalid
            }
        }
        let digest = SHA256.hash(message)
        let tables = nextUsesTables(&hints)
        if version <= .v2 {
            guard
                let signer = ECDSAPublicKey.signer(
                    of: digest, r: r, s: s, among: p192, first: hints.p192, tables: tables)
            else { return .invalid }
            hints.p192 = signer
        } else {
            guard
                let signer = ECDSAPublicKey.signer(
                    of: digest, r: r, s: s, among: p256, first: hints.p256, tables: tables)
            else { return .invalid }
            hints.p256 = signer
        }
        return .verified
    }

    /// An AdAttributionKit stanza's JWS.
    func verifyJWS(
        fields: PostbackFields, line: UnsafeBufferPointer<UInt8>, scratch: inout [UInt8], hints: inout SignerHints
    ) -> SignatureOutcome {
        guard let cell = fields.value(.jwsString, from: .line), cell.span.kind == .string else { return .invalid }
        let jws = Self.text(cell, line, &scratch)
        let dots = jws.indices.filter { jws[$0] == UInt8(ascii: ".") }
        guard dots.count == 2,
            let header = Base64URL.decode(Array(jws[..<dots[0]]), table: Base64URL.table),
            let signature = Base64URL.decode(Array(jws[(dots[1] + 1)...]), table: Base64URL.table),
            let (algorithm, kid) = Self.algorithmAndKeyID(header, &scratch)
        else { return .invalid }
        guard algorithm == "ES256" else { return .unsupported }
        guard let kid, let candidates = jwsKeys[kid] else { return .unknownKey }
        let message = jws[..<dots[1]]
        let tables = nextUsesTables(&hints)
        guard
            let match = candidates.first(where: {
                $0.key.isValidSignature(raw: signature, for: message, tables: tables)
            })
        else { return .invalid }
        return match.development ? .development : .verified
    }

    /// The bytes a base64 string stands for, in `output`; false when it is not base64. Straight from the line,
    /// unless the string has escapes (base64 needs none, but JSON allows them).
    private static func decodeBase64(
        _ cell: PostbackFields.Value, _ line: UnsafeBufferPointer<UInt8>, into output: inout [UInt8],
        _ scratch: inout [UInt8]
    ) -> Bool {
        let span = cell.span
        guard span.hasEscapes else {
            return Base64URL.decode(line, span.start, span.end, into: &output, table: Base64URL.standardTable)
        }
        guard let bytes = Base64URL.decode(text(cell, line, &scratch), table: Base64URL.standardTable) else {
            return false
        }
        output = bytes
        return true
    }

    /// A string's contents (escapes decoded) or a number's text.
    private static func text(_ cell: PostbackFields.Value, _ line: UnsafeBufferPointer<UInt8>, _ scratch: inout [UInt8])
        -> [UInt8]
    {
        let span = cell.span
        if span.kind == .string, span.hasEscapes {
            return Array(JSONStringDecoding.decode(line, span.start, span.end, scratch: &scratch).utf8)
        }
        return Array(line[span.start..<span.end])
    }

    /// The `kid` an AdAttributionKit stanza's JWS header names, unverified: what a receiver can tell on the path
    /// of an acknowledgement (a base64 header of about 60 bytes, no signature check).
    static func claimedKeyID(fields: PostbackFields, line: UnsafeBufferPointer<UInt8>, scratch: inout [UInt8])
        -> String?
    {
        guard let cell = fields.value(.jwsString, from: .line), cell.span.kind == .string else { return nil }
        let jws = text(cell, line, &scratch)
        guard let dot = jws.firstIndex(of: UInt8(ascii: ".")),
            let header = Base64URL.decode(Array(jws[..<dot]), table: Base64URL.table)
        else { return nil }
        return algorithmAndKeyID(header, &scratch)?.1
    }

    /// The `alg` and `kid` strings of a JWS header; nil when it is not a JSON object.
    private static func algorithmAndKeyID(_ header: [UInt8], _ scratch: inout [UInt8]) -> (String?, String?)? {
        header.withUnsafeBufferPointer { bytes -> (String?, String?)? in
            var scanner = JSONScanner(bytes)
            var stack: [UInt8] = []
            var (algorithm, kid): (String?, String?) = (nil, nil)
            do {
                scanner.skipWhitespace()
                try scanner.expect(UInt8(ascii: "{"))
                scanner.skipWhitespace()
                if scanner.peek() == UInt8(ascii: "}") { return (nil, nil) }
                while true {
                    scanner.skipWhitespace()
                    let key = try scanner.scanString()
                    scanner.skipWhitespace()
                    try scanner.expect(UInt8(ascii: ":"))
                    scanner.skipWhitespace()
                    let value = try scanner.scanValue(stack: &stack)
                    let name = JSONStringDecoding.decode(bytes, key.start, key.end, scratch: &scratch)
                    if value.kind == .string, name == "alg" || name == "kid" {
                        let text = JSONStringDecoding.decode(bytes, value.start, value.end, scratch: &scratch)
                        if name == "alg" { algorithm = text } else { kid = text }
                    }
                    scanner.skipWhitespace()
                    guard let byte = scanner.peek() else { return nil }
                    scanner.index += 1
                    if byte == UInt8(ascii: "}") { break }
                    guard byte == UInt8(ascii: ",") else { return nil }
                }
            } catch {
                return nil
            }
            return (algorithm, kid)
        }
    }
}

/// An added key's table, built by the first verification that asks for it (under a lock, so once, whichever
/// decoding thread comes first) rather than when the verifier is made: a run that verifies few signatures, or
/// none by that key, never builds it.
private final class LazyTable: @unchecked Sendable {
    private let key: ECDSAPublicKey
    private let lock = ConditionLock()
    private var built: FixedBaseTable?

    init(_ key: ECDSAPublicKey) {
        self.key = key
    }

    /// The table, built on the first call.
    @Sendable func table() -> FixedBaseTable {
        lock.holding {
            if let built { return built }
            let table = key.makeTable()
            built = table
            return table
        }
    }
}

/// The verifications a verifier's decoders have made, counted under a lock: decoders run on several threads.
private final class VerificationCount: @unchecked Sendable {
    private let lock = ConditionLock()
    private var count = 0

    /// Counts one more; the count.
    func next() -> Int {
        lock.holding {
            count += 1
            return count
        }
    }
}
