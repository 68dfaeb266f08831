import SkanCrypto
import Testing

/// The manifest check an app makes on Apple platforms, through CryptoKit (mirrored, verifying with SkanCrypto):
/// a signature by the pinned key verifies, a changed input or signature does not, and the calls are CryptoKit's
/// iOS 13 ones.
@Suite(.appleMirrorWorld) struct CryptoKitVerifierTests {
    @Test func aSignatureByThePinnedKeyVerifiesAndNothingElseDoes() throws {
        let key = try #require(ECDSASigningKey(d: UInt256(bigEndian: [UInt8](repeating: 7, count: 32))!))
        let der = key.publicKey.der
        let verifier = CryptoKitVerifier(point: Array(der.suffix(65)))
        let input = Array("eyJhbGciOiJFUzI1NiJ9.eyJzZXJpYWwiOjF9".utf8)
        let signature = key.rawSignature(for: input)
        #expect(verifier.isValidSignature(raw: signature, for: input))
        #expect(
            AppleMirrorWorld.current.takeAll() == [
                "P256.Signing.PublicKey.init(x963Representation:)", "P256.Signing.PublicKey.isValidSignature(_:for:)",
            ])
        #expect(!verifier.isValidSignature(raw: signature, for: input + [0x20]))
        var changed = signature
        changed[5] ^= 1
        #expect(!verifier.isValidSignature(raw: changed, for: input))
        #expect(!verifier.isValidSignature(raw: Array(signature.prefix(63)), for: input))
        #expect(
            !CryptoKitVerifier(point: [0x04] + [UInt8](repeating: 1, count: 64)).isValidSignature(
                raw: signature, for: input))
    }
}
