import SkanCore

/// Whether a request body is shaped like a postback Apple sends: one JSON object in well-formed UTF-8, of a
/// SKAdNetwork version Apple used or an AdAttributionKit stanza with a readable JWS, with every field that
/// kind requires, each of the right type and in range. It applies the rules `skanc postbacks` applies (the same
/// decoder, without a schema and without signatures), so the receiver stores what the reader can decode and
/// refuses what no device would send. Problems past the shape (a field a version does not have, a value a
/// non-winner should not carry, a bad signature) are stored and reported by the reader as always: they need
/// the schema or the keys, and a receiver must never refuse a genuine postback on a rule that may change.
package struct PostbackShapeCheck {
    /// What a body is: a postback to store, with what identifies its sender, or the reason it is refused.
    package enum Verdict: Equatable {
        case postback(PostbackSender)
        case refused(reason: String)
    }

    private var decoder: PostbackLineDecoder
    private var scratch: [UInt8] = []

    /// A check of the shape alone, or, with `verification`, of the signature too (about 40 µs a postback: for
    /// work off the path of an acknowledgement, such as forwarding).
    package init(verification: PostbackVerification? = nil) {
        decoder = PostbackLineDecoder(
            validFine: Array(repeating: true, count: 64), verifier: verification.map(SignatureVerifier.init))
    }

    /// The refusal reasons, each a stable code: `not-utf8`, then the statuses that say a line is no postback.
    package static let reasons = ["not-utf8"] + PostbackStatus.allCases.filter(\.isShapeProblem).map(\.code)

    package mutating func check(_ body: [UInt8]) -> Verdict {
        guard UTF8Validity.isValid(body) else { return .refused(reason: "not-utf8") }
        return body.withUnsafeBufferPointer { line in
            let row = decoder.decode(line)
            guard !row.status.isShapeProblem else { return .refused(reason: row.status.code) }
            let development = row.framework == .adattributionkit && decoder.claimsDevelopmentKey(line)
            let payload = decoder.payload
            var sender = payload.withUnsafeBufferPointer { payload in
                PostbackSender(row, line: line, payload: payload, scratch: &scratch)
            }
            sender.claimsDevelopment = development
            return .postback(sender)
        }
    }
}

/// Who a stored postback is about, as far as its fields say (unverified until its signature is checked).
package struct PostbackSender: Hashable, Sendable {
    package var framework: String
    /// The ad network's identifier and the advertised app's App Store ID, as written in the postback.
    package var adNetwork: String
    package var app: String
    /// What the signature verified to, when the check verified it.
    package var signature: SignatureOutcome?
    /// Whether its JWS names one of Apple's development keys (test data, from a device in developer mode), as
    /// claimed: a receiver keeps such postbacks apart before any signature is checked.
    package var claimsDevelopment: Bool

    package init(
        framework: String, adNetwork: String, app: String, signature: SignatureOutcome? = nil,
        claimsDevelopment: Bool = false
    ) {
        self.framework = framework
        self.adNetwork = adNetwork
        self.app = app
        self.signature = signature
        self.claimsDevelopment = claimsDevelopment
    }

    /// Who a decoded row is about: its identifiers as their JSON strings mean them (escapes decoded, so that
    /// `"a\u0062c"` is the ad network `abc` wherever it is named), numbers as written.
    init(
        _ row: PostbackRow, line: UnsafeBufferPointer<UInt8>, payload: UnsafeBufferPointer<UInt8>,
        scratch: inout [UInt8]
    ) {
        func text(_ cell: PostbackRow.Cell) -> String {
            guard let cell else { return "" }
            let source = cell.source == .line ? line : payload
            if cell.span.kind == .string {
                return JSONStringDecoding.decode(source, cell.span.start, cell.span.end, scratch: &scratch)
            }
            return String(decoding: source[cell.span.start..<cell.span.end], as: UTF8.self)
        }
        self.init(
            framework: row.framework == .adattributionkit ? "adattributionkit" : "skadnetwork",
            adNetwork: text(row.adNetworkID), app: text(row.appID), signature: row.signature)
    }
}

extension PostbackStatus {
    /// The statuses that say a line is not shaped like a postback at all: they come first in the order of
    /// precedence, so a line that has one of them has it as its status.
    package var isShapeProblem: Bool {
        rawValue >= PostbackStatus.notJSON.rawValue && rawValue <= PostbackStatus.missingField.rawValue
    }
}
