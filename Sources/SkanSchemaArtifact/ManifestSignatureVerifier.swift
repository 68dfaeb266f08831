public import SkanCrypto

/// What checks a manifest's ES256 signature (r and s, 32 bytes each) over its signing input: SkanCrypto's
/// `ECDSAPublicKey`, or an app's platform cryptography (`SkanRemoteSchema` verifies with CryptoKit on Apple
/// platforms).
public protocol ManifestSignatureVerifier: Sendable {
    /// Whether `signature` signs `input` under this key.
    func isValidSignature(raw signature: [UInt8], for input: [UInt8]) -> Bool
}

extension ECDSAPublicKey: ManifestSignatureVerifier {}
