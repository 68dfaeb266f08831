/// The two DER structures signatures bring: an ECDSA signature (`ECDSA-Sig-Value ::= SEQUENCE { r INTEGER,
/// s INTEGER }`, RFC 3279) and a public key (`SubjectPublicKeyInfo`, RFC 5480). Strict: definite minimal
/// lengths, minimal non-negative integers, nothing after the structure.
package enum DER {
    /// A tag-length-value reader over `bytes`.
    private struct Reader {
        let bytes: ArraySlice<UInt8>
        var index: Int

        init(bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            index = bytes.startIndex
        }

        /// The contents of the next element, which must have `tag`.
        mutating func read(tag: UInt8) -> ArraySlice<UInt8>? {
            guard index < bytes.endIndex, bytes[index] == tag, index + 1 < bytes.endIndex else { return nil }
            var length = Int(bytes[index + 1])
            index += 2
            if length >= 0x80 {
                // Long form: only when the length needs it, with no leading zero byte, and at most two bytes.
                let count = length & 0x7F
                guard count >= 1, count <= 2, index + count <= bytes.endIndex, bytes[index] != 0 else { return nil }
                length = bytes[index..<index + count].reduce(0) { $0 << 8 | Int($1) }
                index += count
                guard length >= 0x80 else { return nil }
            }
            guard length <= bytes.endIndex - index else { return nil }
            defer { index += length }
            return bytes[index..<index + length]
        }

        var atEnd: Bool { index == bytes.endIndex }
    }

    /// r and s of a DER signature: each a minimal positive INTEGER (no sign bit, no needless zero byte).
    package static func signature(_ bytes: [UInt8]) -> (r: UInt256, s: UInt256)? {
        var outer = Reader(bytes: bytes[...])
        guard let sequence = outer.read(tag: 0x30), outer.atEnd else { return nil }
        var inner = Reader(bytes: sequence)
        guard let r = inner.read(tag: 0x02).flatMap(positiveInteger),
            let s = inner.read(tag: 0x02).flatMap(positiveInteger),
            inner.atEnd
        else { return nil }
        return (r, s)
    }

    private static func positiveInteger(_ contents: ArraySlice<UInt8>) -> UInt256? {
        guard let first = contents.first, first & 0x80 == 0 else { return nil }  // empty or negative
        if first == 0, contents.count > 1, contents[contents.startIndex + 1] & 0x80 == 0 { return nil }  // not minimal
        return UInt256(bigEndian: contents)
    }

    /// The curve and the uncompressed point of an EC public key:
    /// `SEQUENCE { SEQUENCE { OID id-ecPublicKey, OID curve }, BIT STRING 0x00 0x04 X Y }`.
    package static func publicKey(_ bytes: [UInt8]) -> (curve: EllipticCurve, point: EllipticCurve.Point)? {
        let ecPublicKey: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
        let prime256v1: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
        let secp192r1: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x01]
        var outer = Reader(bytes: bytes[...])
        guard let info = outer.read(tag: 0x30), outer.atEnd else { return nil }
        var fields = Reader(bytes: info)
        guard let algorithm = fields.read(tag: 0x30), let bits = fields.read(tag: 0x03), fields.atEnd else {
            return nil
        }
        var identifiers = Reader(bytes: algorithm)
        guard let kind = identifiers.read(tag: 0x06), Array(kind) == ecPublicKey,
            let curveID = identifiers.read(tag: 0x06),
            identifiers.atEnd
        else { return nil }
        let curve: EllipticCurve
        switch Array(curveID) {
        case prime256v1: curve = .p256
        case secp192r1: curve = .p192
        default: return nil
        }
        let key = Array(bits)
        let size = curve.byteCount
        guard key.count == 2 + 2 * size, key[0] == 0, key[1] == 0x04,
            let x = UInt256(bigEndian: key[2..<2 + size]), let y = UInt256(bigEndian: key[(2 + size)...]),
            let point = curve.point(x: x, y: y)
        else { return nil }
        return (curve, point)
    }

    /// The private scalar of a P-256 key: SEC 1 `ECPrivateKey ::= SEQUENCE { INTEGER 1, OCTET STRING d, [0] OID
    /// curve OPTIONAL, [1] BIT STRING public key OPTIONAL }`, or PKCS #8 `PrivateKeyInfo ::= SEQUENCE { INTEGER
    /// 0, SEQUENCE { OID id-ecPublicKey, OID prime256v1 }, OCTET STRING ECPrivateKey }`.
    package static func privateKey(_ bytes: [UInt8]) -> UInt256? {
        let ecPublicKey: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
        let prime256v1: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
        var outer = Reader(bytes: bytes[...])
        guard let sequence = outer.read(tag: 0x30), outer.atEnd else { return nil }
        var inner = Reader(bytes: sequence)
        guard let version = inner.read(tag: 0x02), version.count == 1 else { return nil }
        if version.first == 0 {
            // PKCS #8: the algorithm, then the SEC 1 key inside an OCTET STRING.
            guard let algorithm = inner.read(tag: 0x30) else { return nil }
            var identifiers = Reader(bytes: algorithm)
            guard identifiers.read(tag: 0x06).map(Array.init) == ecPublicKey,
                identifiers.read(tag: 0x06).map(Array.init) == prime256v1, identifiers.atEnd,
                let wrapped = inner.read(tag: 0x04)
            else { return nil }
            return privateKey(Array(wrapped))
        }
        guard version.first == 1, let octets = inner.read(tag: 0x04), octets.count == 32 else { return nil }
        // The optional curve, when given, must be P-256; the public key is not needed.
        if let curve = inner.read(tag: 0xA0) {
            var identifier = Reader(bytes: curve)
            guard identifier.read(tag: 0x06).map(Array.init) == prime256v1 else { return nil }
        }
        return UInt256(bigEndian: octets)
    }

    /// An `ECDSA-Sig-Value` for (r, s): each a minimal positive INTEGER.
    package static func signature(r: UInt256, s: UInt256) -> [UInt8] {
        func integer(_ value: UInt256) -> [UInt8] {
            var bytes = Array(value.bigEndianBytes.drop { $0 == 0 })
            if bytes.isEmpty || bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
            return [0x02, UInt8(bytes.count)] + bytes
        }
        let body = integer(r) + integer(s)
        return [0x30, UInt8(body.count)] + body
    }
}
