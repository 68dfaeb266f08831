import SkanCrypto
import SkanSchemaArtifact

/// The team's pinned P-256 key, as the app verifies manifests with it: with CryptoKit on Apple platforms (the
/// system's own implementation), with `SkanCrypto` elsewhere (Linux, where tests run). Both see public data only.
struct PinnedKey: ManifestSignatureVerifier {
    /// The key, read and checked on the curve by `SkanCrypto` whichever verifies.
    let key: ECDSAPublicKey
    /// The uncompressed point (`04 || X || Y`), what CryptoKit's `x963Representation` takes from iOS 13 on.
    let point: [UInt8]

    /// The key in DER `SubjectPublicKeyInfo`; nil unless it is a point on P-256.
    init?(der: [UInt8]) {
        guard let key = ECDSAPublicKey(der: der) else { return nil }
        let encoded = key.der
        // 26 bytes of algorithm identifiers and bit-string header, then the 65-byte point: P-256 only.
        guard encoded.count == 91, encoded[26] == 0x04 else { return nil }
        self.key = key
        point = Array(encoded.suffix(65))
    }

    func isValidSignature(raw signature: [UInt8], for input: [UInt8]) -> Bool {
        #if canImport(CryptoKit)
        return CryptoKitVerifier(point: point).isValidSignature(raw: signature, for: input)
        #else
        return key.isValidSignature(raw: signature, for: input)
        #endif
    }
}
