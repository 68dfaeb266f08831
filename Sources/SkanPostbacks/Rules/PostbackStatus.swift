/// What one postback line came to: `ok` or the first problem found, in this order of precedence.
/// The codes are stable and documented in docs/Postbacks.md. The declaration order is the precedence (and the
/// raw value the position, for counting in an array); `bytes` is the one table of codes.
public enum PostbackStatus: Int, Sendable, CaseIterable {
    case ok
    /// Longer than `PostbackReader.maximumLineBytes`.
    case lineTooLong
    /// Not valid JSON.
    case notJSON
    /// Valid JSON, but not an object.
    case notObject
    /// An AdAttributionKit stanza whose JWS is not three base64url parts with a JSON object in the middle.
    case jwsUnreadable
    /// A known field has the wrong JSON type (`"conversion-value": "12"`), or a number that is not a whole
    /// number (`2.5`, `1e-400`).
    case wrongType
    /// A whole number outside its range: conversion-value 64 or -1 or 1e400, postback-sequence-index 3.
    case outOfRange
    /// A SKAdNetwork `version` Apple never used (versions are 2.0, 2.1, 2.2, 3.0 and 4.0; none means 1.0).
    case unknownVersion
    /// A field the postback's version always carries is missing (`transaction-id`, say).
    case missingField
    /// A field the postback's version does not have: `campaign-id` in 4.0, `source-identifier` before 4.0.
    case fieldNotAllowed
    /// An AdAttributionKit identifier outside the signed JWS payload, where anyone could have set it.
    case signedFieldOutside
    /// An AdAttributionKit conversion value inside the JWS payload; Apple places the values outside it.
    case valueInPayload
    /// A `source-identifier` that is not a string of two, three or four digits.
    case badSourceIdentifier
    /// A coarse value other than low, medium, high.
    case unknownCoarse
    /// A `conversion-type` other than download, redownload or re-engagement.
    case unknownConversionType
    /// An `ad-interaction-type` other than click or view.
    case unknownInteractionType
    /// Both `conversion-value` and `coarse-conversion-value`: Apple sends one or the other.
    case fineAndCoarse
    /// A fine value in postback 2 or 3: only the first postback carries one.
    case fineNotFirst
    /// A postback that did not win carries what only winners get: a value, a later postback, or (from
    /// SKAdNetwork 3) the publisher.
    case nonWinnerExtra
    /// With the schemas of several apps (`--schemas DIR`): a postback of an app none of them is for, so nothing
    /// decodes its values. Kept, as every line is; publishing the app's schema into the folder decodes it.
    case unknownApp
    /// A fine value that is not a state of this schema version (reserved bit, unused bit, undefined code).
    case invalidFine
    /// With versions live together: a fine value valid in more than one of them, so the version that made it
    /// is unknown (`skanc check --live-together` shows which values; reserved bits with a code mark versions).
    case ambiguousVersion
    /// An SKAdNetwork test postback: `source-app-id` and `conversion-value` both 0, which Apple's test postbacks
    /// always carry (StoreKit, "Verifying an install-validation postback") and no real install can (0 is no App
    /// Store ID). Read, but never counted as an install.
    case testPostback
    /// A signature that is not Apple's (`invalid`, `missing`, `unknown-key`, `unsupported`, or `development`
    /// unless development postbacks are allowed): the `signature` column says which.
    case badSignature
    /// A transaction-id or postback-identifier seen on an earlier line.
    case duplicate

    /// The stable code, as every output writes it.
    public var code: String { bytes.description }

    /// The status whose code is `code`.
    public init?(code: String) {
        guard let status = Self.allCases.first(where: { $0.code == code }) else { return nil }
        self = status
    }

    /// The position in `allCases` (and in the order of precedence), for counting in an array.
    var index: Int { rawValue }

    /// The code as UTF-8, without building a String for every row.
    var bytes: StaticString {
        switch self {
        case .ok: "ok"
        case .lineTooLong: "line-too-long"
        case .notJSON: "not-json"
        case .notObject: "not-object"
        case .jwsUnreadable: "jws-unreadable"
        case .wrongType: "wrong-type"
        case .outOfRange: "out-of-range"
        case .unknownVersion: "unknown-version"
        case .missingField: "missing-field"
        case .fieldNotAllowed: "field-not-allowed"
        case .signedFieldOutside: "signed-field-outside"
        case .valueInPayload: "value-in-payload"
        case .badSourceIdentifier: "bad-source-identifier"
        case .unknownCoarse: "unknown-coarse"
        case .unknownConversionType: "unknown-conversion-type"
        case .unknownInteractionType: "unknown-interaction-type"
        case .fineAndCoarse: "fine-and-coarse"
        case .fineNotFirst: "fine-not-first"
        case .nonWinnerExtra: "non-winner-extra"
        case .unknownApp: "unknown-app"
        case .invalidFine: "invalid-fine"
        case .ambiguousVersion: "ambiguous-version"
        case .testPostback: "test-postback"
        case .badSignature: "bad-signature"
        case .duplicate: "duplicate"
        }
    }
}
