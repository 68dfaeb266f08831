/// ECDSA signing with SHA-256 (FIPS 186-4, 6.4), k chosen deterministically from the key and the message
/// (RFC 6979, 3.2), on P-256: what synthetic postbacks are signed with, so that a pipeline that verifies can be
/// tested before real postbacks arrive.
///
/// For test keys only. The arithmetic here was written for verification, where every number is public: the
/// inversion and the table lookups take time that depends on their inputs, so timing can tell about the key.
/// Never sign with a key that protects anything.
package struct ECDSASigningKey: Sendable {
    package let curve: EllipticCurve
    /// The private scalar d, in 1...n−1.
    let d: UInt256

    /// The key d on `curve`; nil unless 1 ≤ d < n.
    package init?(curve: EllipticCurve = .p256, d: UInt256) {
        guard !d.isZero, d < curve.scalars.modulus else { return nil }
        (self.curve, self.d) = (curve, d)
    }

    /// A key from DER: SEC 1 `ECPrivateKey` or PKCS #8 `PrivateKeyInfo` holding one, on P-256.
    package init?(der: [UInt8]) {
        guard let d = DER.privateKey(der) else { return nil }
        self.init(d: d)
    }

    /// Q = d·G.
    package var publicKey: ECDSAPublicKey {
        let point = curve.generatorMultiple(d)
        let (x, y) = curve.affinePoint(point)
        return ECDSAPublicKey(curve: curve, x: x, y: y)!
    }

    /// (r, s) signing `message`.
    package func signature(for message: some Collection<UInt8>) -> (r: UInt256, s: UInt256) {
        let digest = SHA256.hash(message)
        let n = curve.scalars
        var e = UInt256(bigEndian: digest)!
        if !(e < n.modulus) { e = UInt256.subtracting(e, n.modulus).0 }
        var nonces = DeterministicNonces(key: d, digest: e, order: n.modulus)
        while true {
            let k = nonces.next()
            var r = curve.affinePoint(curve.generatorMultiple(k)).x
            if !(r < n.modulus) { r = UInt256.subtracting(r, n.modulus).0 }
            guard !r.isZero else { continue }
            // s = k⁻¹ (e + r·d) mod n, in Montgomery form.
            let sum = n.add(n.toMontgomery(e), n.multiply(n.toMontgomery(r), n.toMontgomery(d)))
            let s = n.fromMontgomery(n.multiply(n.invert(n.toMontgomery(k)), sum))
            guard !s.isZero else { continue }
            return (r, s)
        }
    }

    /// The signature as JWS ES256 writes it: r and s, 32 bytes each, big-endian.
    package func rawSignature(for message: some Collection<UInt8>) -> [UInt8] {
        let (r, s) = signature(for: message)
        return r.bigEndianBytes + s.bigEndianBytes
    }

    /// The signature as a DER `ECDSA-Sig-Value`, as SKAdNetwork's `attribution-signature` holds it.
    package func derSignature(for message: some Collection<UInt8>) -> [UInt8] {
        let (r, s) = signature(for: message)
        return DER.signature(r: r, s: s)
    }
}

/// RFC 6979's k for P-256 and SHA-256: HMAC-DRBG seeded with the key and the reduced digest.
private struct DeterministicNonces {
    var k = [UInt8](repeating: 0, count: 32)
    var v = [UInt8](repeating: 1, count: 32)
    let order: UInt256

    init(key: UInt256, digest: UInt256, order: UInt256) {
        self.order = order
        let seed = key.bigEndianBytes + digest.bigEndianBytes
        k = HMACSHA256.mac(key: k, message: v + [0] + seed)
        v = HMACSHA256.mac(key: k, message: v)
        k = HMACSHA256.mac(key: k, message: v + [1] + seed)
        v = HMACSHA256.mac(key: k, message: v)
    }

    /// The next candidate in 1...n−1.
    mutating func next() -> UInt256 {
        while true {
            v = HMACSHA256.mac(key: k, message: v)
            let candidate = UInt256(bigEndian: v)!
            if !candidate.isZero, candidate < order {
                // Ready for another call, should this k give r or s of zero.
                k = HMACSHA256.mac(key: k, message: v + [0])
                v = HMACSHA256.mac(key: k, message: v)
                return candidate
            }
            k = HMACSHA256.mac(key: k, message: v + [0])
            v = HMACSHA256.mac(key: k, message: v)
        }
    }
}

/// HMAC with SHA-256 (RFC 2104): what RFC 6979's nonces need.
enum HMACSHA256 {
    static func mac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? SHA256.hash(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        let inner = SHA256.hash(block.map { $0 ^ 0x36 } + message)
        return SHA256.hash(block.map { $0 ^ 0x5c } + inner)
    }
}
