// libFuzzer target: bytes → the signature parsers and the verifier. No input may crash them, and the fast
// path (Apple's key through its table) must give the same answer as the general path (the same key without,
// and the verifier's path before it uses tables).
// The private key parsers too: a key they read signs, and its signature verifies.
import FuzzSupport

@testable import SkanCrypto
@testable import SkanPostbacks

/// One input; a crash, leak or failed check is a finding.
func fuzzSignatures(_ input: UnsafeRawBufferPointer) -> Int32 {
    let count = input.count
    let bytes = Array(input)
    _ = DER.signature(bytes)
    _ = DER.publicKey(bytes)
    if let key = ECDSASigningKey(der: bytes), count < 512 {
        guard key.publicKey.isValidSignature(raw: key.rawSignature(for: bytes), for: bytes) else {
            fatalError("a key read from DER signs what its public key does not verify")
        }
    }
    _ = SyntheticPostbacks.SigningKey(pem: String(decoding: bytes.prefix(4096), as: UTF8.self))
    _ = Base64URL.decode(bytes, table: Base64URL.standardTable)
    // As a JWS and as a SKAdNetwork signature, through the verifier a postback line meets.
    let verifier = SignatureVerifier(PostbackVerification())
    let fields = PostbackFields()
    let text = String(decoding: bytes.prefix(4096), as: UTF8.self)
    let escaped = text.unicodeScalars.map { $0 == "\"" || $0 == "\\" || $0.value < 0x20 ? "x" : String($0) }.joined()
    for line in [
        #"{"jws-string":"\#(escaped)"}"#,
        #"{"version":"4.0","ad-network-id":"n","source-identifier":"12","app-id":1,"transaction-id":"t","redownload":false,"fidelity-type":1,"did-win":true,"postback-sequence-index":0,"attribution-signature":"\#(escaped)"}"#,
    ] {
        Array(line.utf8).withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer)
            var stack: [UInt8] = []
            fields.reset()
            guard (try? fields.readObject(&scanner, source: .line, stack: &stack)) != nil else { return }
            var scratch: [UInt8] = []
            var hints = SignatureVerifier.SignerHints()
            _ = verifier.verifyJWS(fields: fields, line: buffer, scratch: &scratch, hints: &hints)
            _ = verifier.verifySKAdNetwork(
                version: .v4, fields: fields, line: buffer, scratch: &scratch, hints: &hints)
        }
    }
    // r, s and a message from the input: the table and the general path agree.
    if count >= 64, let r = UInt256(bigEndian: bytes[0..<32]), let s = UInt256(bigEndian: bytes[32..<64]) {
        let apple = PostbackPublicKey.apple[1].key
        let plain = ECDSAPublicKey(
            curve: apple.curve, x: apple.curve.field.fromMontgomery(apple.point.x),
            y: apple.curve.field.fromMontgomery(apple.point.y))!
        let message = bytes[64...]
        let answer = apple.isValidSignature(r: r, s: s, for: message)
        guard answer == plain.isValidSignature(r: r, s: s, for: message),
            answer == apple.isValidSignature(r: r, s: s, digest: SHA256.hash(message), tables: false)
        else { fatalError("the table and the general path disagree on a signature") }
        // Random signatures are almost never valid, so the points themselves must agree too: u1·G + u2·Q
        // with Q's table and with doublings, for u1 = r and u2 = s (any 256-bit numbers; the windows
        // cover them all).
        let curve = apple.curve
        let tabled = curve.linearCombination(r, s, apple.point, qTable: apple.table)
        let general = curve.linearCombination(r, s, apple.point, qTable: nil)
        guard tabled.isInfinity == general.isInfinity,
            tabled.isInfinity || curve.affineX(tabled) == curve.affineX(general)
        else { fatalError("the table and the general path disagree on u1·G + u2·Q") }
    }
    return 0
}

runLibFuzzer { data, count in fuzzSignatures(fuzzInput(data, count)) }
