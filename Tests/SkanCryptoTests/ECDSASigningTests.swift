import Foundation
import SkanCore
import SkanTestSupport
import Testing

@testable import SkanCrypto

/// Signing for synthetic postbacks: RFC 6979's own P-256/SHA-256 vectors (appendix A.2.5), keys in the PEM forms
/// OpenSSL writes, and signatures that OpenSSL (Python's cryptography) and the verifier accept.
@Suite struct ECDSASigningTests {
    static let rfcKey = ECDSASigningKey(
        d: UInt256(hex: "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721"))!

    @Test func rfc6979Vectors() {
        let sample = Self.rfcKey.signature(for: Array("sample".utf8))
        #expect(sample.r == UInt256(hex: "efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716"))
        #expect(sample.s == UInt256(hex: "f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8"))
        let test = Self.rfcKey.signature(for: Array("test".utf8))
        #expect(test.r == UInt256(hex: "f1abb023518351cd71d881567b1ea663ed3efcf6c5132b354f28d3b0b7d38367"))
        #expect(test.s == UInt256(hex: "019f4113742a2b14bd25926b49c649155f267e60d3814b4c0cc84250e46f0083"))
        let key = Self.rfcKey.publicKey
        let (x, y) = key.curve.affinePoint(key.point)
        #expect(x == UInt256(hex: "60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6"))
        #expect(y == UInt256(hex: "7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299"))
    }

    /// The RFC's key as OpenSSL writes it, SEC 1 and PKCS #8.
    @Test(arguments: [
        "MHcCAQEEIMmvqdhFunUWa1whV2ex1pNOUMPbNuibEnuKYisSD2choAoGCCqGSM49AwEHoUQDQgAEYP7UuiVanTHJYet0xjVtaMBJuJI7Yfps5mliLmDyn7Z5A/4QCLi8maQa6elWKLxk8vGyDC1+n1F3o8KU1EYimQ==",
        "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgya+p2EW6dRZrXCFXZ7HWk05Qw9s26JsSe4piKxIPZyGhRANCAARg/tS6JVqdMclh63TGNW1owEm4kjth+mzmaWIuYPKftnkD/hAIuLyZpBrp6VYovGTy8bIMLX6fUXejwpTURiKZ",
    ])
    func keysReadFromTheirDER(_ base64: String) throws {
        let der = try #require(Data(base64Encoded: base64))
        let key = try #require(ECDSASigningKey(der: [UInt8](der)))
        #expect(key.d == Self.rfcKey.d)
        #expect(ECDSASigningKey(der: [0x30, 0x03, 0x02, 0x01, 0x01]) == nil)
    }

    @Test func signaturesVerifyHereAndInOpenSSL() throws {
        var messages: [[UInt8]] = []
        var generator = SplitMix64(seed: 6979)
        for length in [0, 1, 55, 64, 200] {
            messages.append((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
        let key = Self.rfcKey.publicKey
        var lines: [String] = []
        for message in messages {
            let der = Self.rfcKey.derSignature(for: message)
            #expect(key.isValidSignature(der: der, for: message))
            #expect(key.isValidSignature(raw: Self.rfcKey.rawSignature(for: message), for: message))
            lines.append(Data(message).base64EncodedString() + " " + Data(der).base64EncodedString())
        }
        // OpenSSL, through Python's cryptography (installed by .ci/run), checks every DER signature.
        let script = """
            import base64, sys
            from cryptography.hazmat.primitives.asymmetric import ec
            from cryptography.hazmat.primitives import hashes
            key = ec.derive_private_key(int("c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721", 16), ec.SECP256R1()).public_key()
            for line in sys.stdin.read().split("\\n"):
                message, signature = line.split(" ")
                key.verify(base64.b64decode(signature), base64.b64decode(message), ec.ECDSA(hashes.SHA256()))
            print("ok")
            """
        let result = try ChildProcess.run(
            try ChildProcess.onPath("python3"), ["-c", script], stdin: lines.joined(separator: "\n"))
        #expect(result.stdout == "ok\n", "\(result.stderr)")
    }

    /// `signer(among:first:)` starts at the key it is given and goes round the others: the signer is found
    /// from every start, and nothing signs another message.
    @Test func theSignerIsFoundFromAnyFirstKey() {
        let message = Array("postback".utf8)
        let (r, s) = Self.rfcKey.signature(for: message)
        let others = [
            ECDSASigningKey(d: UInt256(hex: "05"))!.publicKey, ECDSASigningKey(d: UInt256(hex: "07"))!.publicKey,
        ]
        let keys = [others[0], Self.rfcKey.publicKey, others[1]]
        for first in [0, 1, 2, 3, -1] {
            #expect(ECDSAPublicKey.signer(of: SHA256.hash(message), r: r, s: s, among: keys, first: first) == 1)
            #expect(
                ECDSAPublicKey.signer(of: SHA256.hash(Array("other".utf8)), r: r, s: s, among: keys, first: first)
                    == nil)
        }
    }

    /// With the tables and without them (the generator's and a key's), every signature gets the same answer:
    /// random messages on both curves' keys, each signature checked as signed and with r, s or the message
    /// changed.
    @Test func tablesChangeNoAnswer() {
        var generator = SplitMix64(seed: 6979)
        let tabled = Self.rfcKey.publicKey.withTable()
        for round in 0..<24 {
            let message = (0..<(round * 7 % 50)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let (r, s) = Self.rfcKey.signature(for: message)
            let cases: [(UInt256, UInt256, [UInt8], Bool)] = [
                (r, s, message, true), (UInt256.adding(r, UInt256(hex: "01")).0, s, message, false),
                (r, UInt256.adding(s, UInt256(hex: "02")).0, message, false), (r, s, message + [1], false),
            ]
            for (r, s, message, valid) in cases {
                for key in [Self.rfcKey.publicKey, tabled] {
                    for tables in [false, true] {
                        let found = ECDSAPublicKey.signer(
                            of: SHA256.hash(message), r: r, s: s, among: [key], tables: tables)
                        #expect((found == 0) == valid, "round \(round), tables \(tables)")
                    }
                }
            }
        }
    }
}
