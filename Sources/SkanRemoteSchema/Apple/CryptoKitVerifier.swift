// Calls CryptoKit. Compiled on Apple platforms, and in CI on Linux against the mirror (Tests/AppleAPIMirrorTests).
#if canImport(CryptoKit) || APPLE_API_MIRROR
#if canImport(CryptoKit)
import CryptoKit
#endif
#if APPLE_API_MIRROR
import Foundation
#endif

/// A manifest's ES256 signature checked by CryptoKit, the system's own implementation: the key from its
/// uncompressed point (`x963Representation`, iOS 13; the DER initializer needs iOS 14), the signature from its
/// 64 raw bytes.
struct CryptoKitVerifier: Sendable {
    /// The key's uncompressed point, `04 || X || Y`.
    let point: [UInt8]

    /// Whether `signature` (r and s, 32 bytes each) signs `input` under the key.
    func isValidSignature(raw signature: [UInt8], for input: [UInt8]) -> Bool {
        guard let key = try? P256.Signing.PublicKey(x963Representation: point),
            let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature)
        else { return false }
        return key.isValidSignature(parsed, for: input)
    }
}
#endif
