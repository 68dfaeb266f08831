import SkanCrypto

/// What a postback's signature came to (the `signature` column).
public enum SignatureOutcome: String, Sendable, CaseIterable {
    /// Signed with Apple's production key for its version or JWS key identifier.
    case verified
    /// Signed with one of Apple's AdAttributionKit development keys: genuine, but from a test device.
    case development
    /// A signature that does not sign the postback (or is no signature at all: malformed DER or JWS).
    case invalid
    /// No `attribution-signature` (SKAdNetwork) to verify.
    case missing
    /// A JWS `kid` that names no key skanc knows.
    case unknownKey = "unknown-key"
    /// A version or algorithm skanc cannot verify: a SKAdNetwork version it does not know, a JWS `alg` other
    /// than ES256.
    case unsupported

    /// The position in `allCases`, for counting in an array.
    var index: Int { Self.allCases.firstIndex(of: self)! }
}

/// An ECDSA public key to verify postbacks with, besides Apple's.
public struct PostbackPublicKey: Sendable {
    /// What the key signs.
    public enum Kind: Sendable, Equatable {
        /// SKAdNetwork postbacks: a P-256 key for versions 2.1 and later, a P-192 key for 1.0 and 2.0.
        case skadnetwork
        /// AdAttributionKit JWS with this `kid`; `development` keys give the outcome `development`.
        case jws(kid: String, development: Bool)
    }

    let kind: Kind
    let key: ECDSAPublicKey

    /// A key from its DER `SubjectPublicKeyInfo`; nil unless it is a valid P-256 or P-192 key (JWS: P-256).
    public init?(kind: Kind, der: [UInt8]) {
        guard let key = ECDSAPublicKey(der: der) else { return nil }
        if case .jws = kind, key.curve !== EllipticCurve.p256 { return nil }
        (self.kind, self.key) = (kind, key)
    }

    init(kind: Kind, key: ECDSAPublicKey) {
        (self.kind, self.key) = (kind, key)
    }

    /// Why a key argument cannot be used, in words the command line puts after the argument it names.
    public struct ArgumentError: Error, Sendable {
        /// What is wrong and what to write instead.
        public var message: String
    }

    /// A key as the command line gives it: `skadnetwork=BASE64`, `jws:KID=BASE64` or `jws-development:KID=BASE64`.
    public init(argument text: String) throws(ArgumentError) {
        guard let equals = text.firstIndex(of: "=") else {
            throw ArgumentError(message: "a key is KIND=BASE64, like skadnetwork=MFkw…")
        }
        let (kindText, base64) = (String(text[..<equals]), String(text[text.index(after: equals)...]))
        let kind: Kind
        if kindText == "skadnetwork" {
            kind = .skadnetwork
        } else if kindText.hasPrefix("jws:"), kindText.count > 4 {
            kind = .jws(kid: String(kindText.dropFirst(4)), development: false)
        } else if kindText.hasPrefix("jws-development:"), kindText.count > 16 {
            kind = .jws(kid: String(kindText.dropFirst(16)), development: true)
        } else {
            throw ArgumentError(
                message: "the kinds are skadnetwork, jws:KID and jws-development:KID, not '\(kindText)'")
        }
        guard let key = PostbackPublicKey(kind: kind, base64: base64) else {
            throw ArgumentError(
                message: "the key is not a base64 DER P-256 or P-192 public key (SubjectPublicKeyInfo)")
        }
        self = key
    }

    /// A key written in base64, as Apple publishes them.
    public init?(kind: Kind, base64 text: String) {
        guard let der = Base64URL.decode(Array(text.utf8), table: Base64URL.standardTable) else { return nil }
        self.init(kind: kind, der: der)
    }

    /// Apple's keys: SKAdNetwork's P-192 key (1.0, 2.0) and P-256 key (2.1 and later, and AdAttributionKit's
    /// production `apple-cas-identifier/0`), and AdAttributionKit's development keys. Each has a table, so
    /// its verifications need no doubling; the table is built when a verification first uses it (after
    /// `SignatureVerifier.verificationsBeforeTables`).
    /// The key identifiers of Apple's AdAttributionKit development keys: a JWS that names one is test data.
    package static let developmentKeyIDs: Set<String> = Set(
        apple.compactMap { key in
            if case .jws(let kid, development: true) = key.kind { return kid }
            return nil
        })

    static let apple: [PostbackPublicKey] = [
        PostbackPublicKey(kind: .skadnetwork, key: AppleKeys.p192.withTable { AppleKeys.p192Table }),
        PostbackPublicKey(kind: .skadnetwork, key: AppleKeys.p256.withTable { AppleKeys.p256Table }),
        PostbackPublicKey(
            kind: .jws(kid: "apple-cas-identifier/0", development: false),
            key: AppleKeys.p256.withTable { AppleKeys.p256Table }),
        PostbackPublicKey(
            kind: .jws(kid: "apple-development-identifier/0", development: true),
            key: AppleKeys.development0.withTable { AppleKeys.development0Table }),
        PostbackPublicKey(
            kind: .jws(kid: "apple-development-identifier/1", development: true),
            key: AppleKeys.development1.withTable { AppleKeys.development1Table }),
    ]
}

/// Apple's published keys, from StoreKit's SKAdNetwork 1 and 2 release notes, "Verifying an
/// install-validation postback", and AdAttributionKit's "Verifying a postback". The tables are static
/// constants, so each is built once, by the first thread that needs it, and never by a run that does not.
enum AppleKeys {
    static let p192 = key(
        "MEkwEwYHKoZIzj0CAQYIKoZIzj0DAQEDMgAEMyHD625uvsmGq4C43cQ9BnfN2xslVT5V1nOmAMP6qaRRUll3PB1JYmgSm+62sosG")
    static let p256 = key(
        "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEWdp8GPcGqmhgzEFj9Z2nSpQVddayaPe4FMzqM9wib1+aHaaIzoHoLN9zW4K8y4SPykE3YVK3sVqW6Af0lfx3gg=="
    )
    static let development0 = key(
        "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAELeEDzpJEP+/qRSE5hJVC1p1J0ssUnQGMzBBbvnACBok8OVGGLgxL0myrKiy6lvRtSlLRsWit87i+vftD8AEqeQ=="
    )
    static let development1 = key(
        "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE8YzdO7eM97s/IJ25kdW5CZ3A14USE5IJ5Ha/vhWaxI6UBI1ZxCEvjrKxVluVGe6qWwF1BDFq+QHqKfH5u+wxHQ=="
    )
    static let p192Table = p192.makeTable()
    static let p256Table = p256.makeTable()
    static let development0Table = development0.makeTable()
    static let development1Table = development1.makeTable()

    private static func key(_ base64: String) -> ECDSAPublicKey {
        PostbackPublicKey(kind: .skadnetwork, base64: base64)!.key
    }
}

/// How `PostbackReader` checks signatures: with Apple's keys and any added, and whether postbacks signed
/// with a development key count as `ok`.
public struct PostbackVerification: Sendable {
    /// Whether `development` signatures are accepted (the status stays `ok`); otherwise `bad-signature`.
    public var allowDevelopment: Bool
    /// Keys tried besides Apple's.
    public var additionalKeys: [PostbackPublicKey]

    /// Verification with Apple's keys and `additionalKeys`; development postbacks count only when allowed.
    public init(allowDevelopment: Bool = false, additionalKeys: [PostbackPublicKey] = []) {
        self.allowDevelopment = allowDevelopment
        self.additionalKeys = additionalKeys
    }
}
