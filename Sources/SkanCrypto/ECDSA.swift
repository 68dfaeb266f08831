/// ECDSA signature verification (FIPS 186-4, 6.4) with SHA-256, on P-256 and P-192. Only public data is
/// handled (keys, messages, signatures), so nothing here needs to run in constant time.
public struct ECDSAPublicKey: Sendable {
    package let curve: EllipticCurve
    package let point: EllipticCurve.Point
    /// The key's own table, for keys verified often (Apple's): then no doubling is needed. A function, so
    /// that a table kept in a static constant is built only when a signature first needs it.
    private(set) var tableSource: (@Sendable () -> FixedBaseTable)?

    /// The key's table, if it has one.
    package var table: FixedBaseTable? { tableSource?() }

    /// A new table for this key: about 0.45 MiB and 25 ms, then verifications about four times as fast.
    package func makeTable() -> FixedBaseTable {
        FixedBaseTable(point: point, field: curve.field, bits: curve.byteCount * 8)
    }

    /// The same key with a table built now.
    public func withTable() -> ECDSAPublicKey {
        let table = makeTable()
        return withTable { table }
    }

    /// The same key with the table `source` returns (a static constant's, built on first use).
    package func withTable(_ source: @escaping @Sendable () -> FixedBaseTable) -> ECDSAPublicKey {
        var copy = self
        copy.tableSource = source
        return copy
    }

    /// A key from its DER `SubjectPublicKeyInfo`; nil unless it is a P-256 or P-192 point on its curve.
    public init?(der: [UInt8]) {
        guard let (curve, point) = DER.publicKey(der) else { return nil }
        (self.curve, self.point) = (curve, point)
    }

    /// The key (x, y) on `curve`; nil when the point is not on the curve.
    package init?(curve: EllipticCurve, x: UInt256, y: UInt256) {
        guard let point = curve.point(x: x, y: y) else { return nil }
        (self.curve, self.point) = (curve, point)
    }

    /// Whether (r, s) signs `message`: both in 1...n−1, and the x of u1·G + u2·Q equals r modulo n.
    package func isValidSignature(r: UInt256, s: UInt256, for message: some Collection<UInt8>) -> Bool {
        isValidSignature(r: r, s: s, digest: SHA256.hash(message))
    }

    package func isValidSignature(r: UInt256, s: UInt256, digest: [UInt8], tables: Bool = true) -> Bool {
        Self.signer(of: digest, r: r, s: s, among: [self], tables: tables) != nil
    }

    /// A key of `keys` (all on one curve) for which (r, s) signs `digest`, trying `keys[first]` first and then
    /// the ones after it, round to the one before: a caller that passes the key the previous signature came from
    /// pays one verification a line on a file signed by one key, whichever it is. Everything but u2·Q is the same for every key (1/s, u1, u2,
    /// u1·G), so it is computed once: a further key costs about half a verification.
    ///
    /// With `tables` (the default), u1·G comes from the generator's table and u2·Q from the key's, when it has
    /// one: each is built when first needed (about 25 ms), then saves most of each verification. A caller that
    /// verifies only a few signatures passes false and builds neither.
    package static func signer(
        of digest: [UInt8], r: UInt256, s: UInt256, among keys: [ECDSAPublicKey], first: Int = 0, tables: Bool = true
    ) -> Int? {
        guard let curve = keys.first?.curve else { return nil }
        let n = curve.scalars
        guard !r.isZero, !s.isZero, r < n.modulus, s < n.modulus else { return nil }
        // e: the digest's leftmost bits, as many as n has (all 256 for P-256, 192 for P-192), reduced mod n.
        guard var e = UInt256(bigEndian: digest.prefix(curve.byteCount)) else { return nil }
        if !(e < n.modulus) { e = UInt256.subtracting(e, n.modulus).0 }
        let w = n.invert(n.toMontgomery(s))
        let u1 = n.fromMontgomery(n.multiply(n.toMontgomery(e), w))
        let u2 = n.fromMontgomery(n.multiply(n.toMontgomery(r), w))
        let u1G = tables ? curve.generatorMultiple(u1) : curve.multiply(u1, curve.generator)
        let start = keys.indices.contains(first) ? first : 0
        for offset in keys.indices {
            let index = (start + offset) % keys.count
            let key = keys[index]
            precondition(key.curve === curve, "keys on different curves")
            let sum = curve.adding(u2, times: key.point, qTable: tables ? key.table : nil, to: u1G)
            if !sum.isInfinity && curve.xMatches(sum, r: r) { return index }
        }
        return nil
    }

    /// The key as DER `SubjectPublicKeyInfo` (RFC 5480): an uncompressed point on P-256 or P-192.
    package var der: [UInt8] {
        let (x, y) = curve.affinePoint(point)
        let p256 = curve.byteCount == 32
        let prefix: [UInt8] =
            p256
            ? [0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A, 0x86]
                + [0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00, 0x04]
            : [0x30, 0x49, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A, 0x86]
                + [0x48, 0xCE, 0x3D, 0x03, 0x01, 0x01, 0x03, 0x32, 0x00, 0x04]
        let width = curve.byteCount
        return prefix + x.bigEndianBytes.suffix(width) + y.bigEndianBytes.suffix(width)
    }

    /// Whether a DER `ECDSA-Sig-Value` signs `message`; malformed DER is not a signature.
    public func isValidSignature(der: [UInt8], for message: some Collection<UInt8>) -> Bool {
        guard let (r, s) = DER.signature(der) else { return false }
        return isValidSignature(r: r, s: s, for: message)
    }

    /// Whether a JWS ES256 signature (r and s, 32 bytes each, big-endian) signs `message`.
    public func isValidSignature(raw: [UInt8], for message: some Collection<UInt8>) -> Bool {
        isValidSignature(raw: raw, for: message, tables: true)
    }

    /// Whether a JWS ES256 signature signs `message`, with the tables or without (see `signer`).
    package func isValidSignature(raw: [UInt8], for message: some Collection<UInt8>, tables: Bool) -> Bool {
        guard curve.byteCount == 32, raw.count == 64, let r = UInt256(bigEndian: raw[0..<32]),
            let s = UInt256(bigEndian: raw[32...])
        else { return false }
        return isValidSignature(r: r, s: s, digest: SHA256.hash(message), tables: tables)
    }
}
