import SkanCore
public import SkanCrypto

/// A manifest as the file `manifest.jws` holds it: a JWS in compact serialization (RFC 7515) signed with ES256,
/// the form AdAttributionKit's own postbacks use. The header is `{"alg":"ES256","kid":KEY,"typ":"skanc-manifest"}`
/// with KEY the first 16 hex digits of the SHA-256 of the signing key's public key (DER); the payload is the
/// manifest's canonical JSON.
public struct SignedManifest: Sendable {
    /// The manifest signed.
    public let manifest: SchemaManifest
    /// The file's text: `header.payload.signature`, each base64url without padding.
    public let compact: String

    /// The key ID of `publicKey`: the first 16 hex digits of the SHA-256 of its DER.
    public static func keyID(_ publicKey: ECDSAPublicKey) -> String {
        String(SHA256.hexDigest(publicKey.der).prefix(16))
    }

    /// The bytes to sign for `manifest` under `publicKey`'s key: `base64url(header).base64url(payload)`.
    public static func signingInput(_ manifest: SchemaManifest, publicKey: ECDSAPublicKey) -> [UInt8] {
        let header = CanonicalJSON.object([
            "alg": .string("ES256"), "kid": .string(keyID(publicKey)), "typ": .string("skanc-manifest"),
        ]).bytes
        return Array((Base64URL.encode(header, url: true) + "." + Base64URL.encode(manifest.bytes, url: true)).utf8)
    }

    /// The manifest signed by `signature` (DER `ECDSA-Sig-Value`, as OpenSSL and cloud KMSs return it, or the 64
    /// bytes of r and s); nil unless it verifies with `publicKey`.
    public init?(_ manifest: SchemaManifest, publicKey: ECDSAPublicKey, signature: [UInt8]) {
        let input = Self.signingInput(manifest, publicKey: publicKey)
        var raw = signature
        if signature.count != 64 {
            guard let (r, s) = DER.signature(signature) else { return nil }
            raw = r.bigEndianBytes + s.bigEndianBytes
        }
        guard publicKey.isValidSignature(raw: raw, for: input) else { return nil }
        self.manifest = manifest
        compact = String(decoding: input, as: UTF8.self) + "." + Base64URL.encode(raw, url: true)
    }

    /// The manifest in `jws` (the file's bytes), verified with `publicKey`; `SchemaArtifact.Invalid` when it is
    /// not a compact JWS, not ES256 under this key, not signed by it, or its payload is no manifest.
    public init(jws: [UInt8], publicKey: ECDSAPublicKey) throws(SchemaArtifact.Invalid) {
        try self.init(jws: jws, verifier: publicKey)
    }

    /// The manifest in `jws`, its signature checked by `verifier` (the pinned key, verified by the platform's
    /// cryptography where an app has it); otherwise as `init(jws:publicKey:)`.
    public init(jws: [UInt8], verifier: some ManifestSignatureVerifier) throws(SchemaArtifact.Invalid) {
        guard jws.count <= SchemaArtifact.maximumBytes else {
            throw SchemaArtifact.Invalid(message: "a manifest has at most \(SchemaArtifact.maximumBytes) bytes")
        }
        var text = jws
        while let last = text.last, last == 0x0A || last == 0x0D || last == 0x20 { text.removeLast() }
        let parts = text.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3, let header = Base64URL.decode(Array(parts[0]), table: Base64URL.table),
            let payload = Base64URL.decode(Array(parts[1]), table: Base64URL.table),
            let signature = Base64URL.decode(Array(parts[2]), table: Base64URL.table)
        else {
            throw SchemaArtifact.Invalid(message: "not a JWS in compact form (header.payload.signature, base64url)")
        }
        var reader = JSONReader(bytes: header, maximumDepth: 2, tooDeep: "a JWS header is one object")
        guard case .string("ES256")? = (try? reader.document())?["alg"] else {
            throw SchemaArtifact.Invalid(message: "the JWS is not signed with ES256")
        }
        let input = Array(text[..<(parts[0].count + 1 + parts[1].count)])
        guard signature.count == 64, verifier.isValidSignature(raw: signature, for: input) else {
            throw SchemaArtifact.Invalid(
                message: "the manifest's signature does not verify with the pinned key: it was changed, or signed "
                    + "with another key")
        }
        manifest = try SchemaManifest(bytes: payload)
        compact = String(decoding: text, as: UTF8.self)
    }
}

extension SignedManifest {
    /// The manifest in `jws` without checking its signature: for `skanc publish status` without a key, which
    /// says so. An app never reads a manifest this way.
    public static func unverifiedManifest(jws: [UInt8]) throws(SchemaArtifact.Invalid) -> SchemaManifest {
        let parts = jws.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Base64URL.decode(Array(parts[1]), table: Base64URL.table) else {
            throw SchemaArtifact.Invalid(message: "not a JWS in compact form (header.payload.signature, base64url)")
        }
        return try SchemaManifest(bytes: payload)
    }
}
