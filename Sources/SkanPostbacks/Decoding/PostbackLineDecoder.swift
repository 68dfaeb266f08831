import SkanCrypto

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads one postback line into a `PostbackRow`: parses the JSON, picks SKAdNetwork or AdAttributionKit,
/// decodes the JWS payload of the latter, and applies Apple's rules and the schema's. Keeps its scratch
/// buffers between lines, so steady-state decoding allocates nothing.
struct PostbackLineDecoder {
    /// Per app (`app * 64 + fine`), fine values 0...63 that are states of its schema (of exactly one, when
    /// versions are live together).
    let validFine: [Bool]
    /// Per app, fine values 0...63 valid in more than one of the versions live together.
    let ambiguousFine: [Bool]
    /// The apps postbacks are routed to by their app ID; nil when every postback is decoded alike.
    let catalog: SchemaCatalog?
    let fields = PostbackFields()
    /// Apple's rules as key sets.
    let rules = PostbackRules.Sets()
    /// Checks signatures; nil when they are not verified.
    let verifier: SignatureVerifier?
    private var scratch: [UInt8] = []
    /// The keys the previous lines were signed with, tried first.
    private(set) var signerHints = SignatureVerifier.SignerHints()
    private let base64Table = Base64URL.table
    private var stack: [UInt8] = []
    /// The decoded JWS payload of the current line, when it is an AdAttributionKit stanza.
    private(set) var payload: [UInt8] = []

    /// `validFine[v]` says whether fine value `v` is a state of the schema (`RowTemplates.validFine`);
    /// `ambiguousFine[v]`, whether it is one of several live versions.
    init(
        validFine: [Bool], ambiguousFine: [Bool] = Array(repeating: false, count: 64), catalog: SchemaCatalog? = nil,
        verifier: SignatureVerifier?
    ) {
        self.validFine = validFine
        self.ambiguousFine = ambiguousFine
        self.catalog = catalog?.routesByApp == true ? catalog : nil
        self.verifier = verifier
        stack.reserveCapacity(64)
        payload.reserveCapacity(1024)
    }

    /// Decodes `line` (no line terminator). The row's spans point into `line` or into `payload`.
    mutating func decode(_ line: UnsafeBufferPointer<UInt8>) -> PostbackRow {
        var row = PostbackRow()
        // Routed by app, a line is no app's until its app ID says which.
        if catalog != nil { row.app = -1 }
        fields.reset()
        var scanner = JSONScanner(line)
        scanner.skipWhitespace()
        guard scanner.peek() == UInt8(ascii: "{") else {
            row.status = isJSONValue(line) ? .notObject : .notJSON
            return row
        }
        do {
            try fields.readObject(&scanner, source: .line, stack: &stack)
        } catch {
            row.status = .notJSON
            return row
        }
        if let jws = fields[.jwsString] {
            row.framework = .adattributionkit
            readPayload(jws, line: line, into: &row)
        } else {
            row.framework = .skadnetwork
        }
        // A copy of the array reference (not of the decoder), so the checks borrow the decoder as it is.
        let payload = self.payload
        payload.withUnsafeBufferPointer { check(line, payload: $0, into: &row) }
        if let verifier {
            let outcome =
                row.framework == .adattributionkit
                ? verifier.verifyJWS(fields: fields, line: line, scratch: &scratch, hints: &signerHints)
                : verifier.verifySKAdNetwork(
                    version: row.version, fields: fields, line: line, scratch: &scratch, hints: &signerHints)
            row.signature = outcome
            if outcome != .verified && !(outcome == .development && verifier.allowDevelopment) {
                row.flag(.badSignature)
            }
        }
        return row
    }

    /// Whether the line just decoded is an AdAttributionKit stanza whose JWS names one of Apple's development
    /// keys (unverified: what it claims).
    mutating func claimsDevelopmentKey(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let kid = SignatureVerifier.claimedKeyID(fields: fields, line: line, scratch: &scratch) else {
            return false
        }
        return PostbackPublicKey.developmentKeyIDs.contains(kid)
    }

    /// Whether the line is some JSON value other than an object (an array, a string, a number...).
    private mutating func isJSONValue(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        var scanner = JSONScanner(line)
        scanner.skipWhitespace()
        guard (try? scanner.scanValue(stack: &stack)) != nil else { return false }
        scanner.skipWhitespace()
        return scanner.atEnd
    }

    /// The JWS compact form is `header.payload.signature`; the payload is base64url JSON holding the
    /// identifiers. The fine and coarse values sit outside it, in the stanza. A payload that is not one
    /// JSON object contributes no field.
    private mutating func readPayload(
        _ jws: PostbackFields.Value, line: UnsafeBufferPointer<UInt8>, into row: inout PostbackRow
    ) {
        let span = jws.span
        guard span.kind == .string else {
            row.flag(.wrongType)
            return
        }
        let decoded: Bool
        if span.hasEscapes {
            // Escapes are rare in a JWS (`\/`, `\u002e`): the text is decoded before it is split.
            let text = Array(JSONStringDecoding.decode(line, span.start, span.end, scratch: &scratch).utf8)
            decoded = text.withUnsafeBufferPointer { decodePayloadSegment($0, 0, $0.count) }
        } else {
            decoded = decodePayloadSegment(line, span.start, span.end)
        }
        let readable =
            decoded
            && payload.withUnsafeBufferPointer { buffer -> Bool in
                // Checked whole before any member is kept, so a broken payload leaves no field behind.
                var check = JSONScanner(buffer)
                check.skipWhitespace()
                guard check.peek() == UInt8(ascii: "{"), (try? check.scanValue(stack: &stack)) != nil else {
                    return false
                }
                check.skipWhitespace()
                guard check.atEnd else { return false }
                var scanner = JSONScanner(buffer)
                scanner.skipWhitespace()
                return (try? fields.readObject(&scanner, source: .payload, stack: &stack)) != nil
            }
        if !readable { row.flag(.jwsUnreadable) }
    }

    /// Decodes the middle of `text[start..<end]`'s three dot-separated parts into `payload`; false when
    /// there are not exactly two dots or the middle part is not base64url.
    private mutating func decodePayloadSegment(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        func dot(from start: Int) -> Int? {
            guard start < end, let base = text.baseAddress,
                let found = memchr(base + start, Int32(UInt8(ascii: ".")), end - start)
            else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
        guard let firstDot = dot(from: start), let secondDot = dot(from: firstDot + 1), dot(from: secondDot + 1) == nil
        else { return false }
        return Base64URL.decode(text, firstDot + 1, secondDot, into: &payload, table: base64Table)
    }
}
