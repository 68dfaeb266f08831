/// An unsigned 256-bit integer as four 64-bit limbs, least significant first: the numbers of P-256 and
/// P-192 (whose values simply leave the top limb zero). Only what signature verification needs.
package struct UInt256: Equatable, Sendable {
    package var l0: UInt64, l1: UInt64, l2: UInt64, l3: UInt64

    package static let zero = UInt256(l0: 0, l1: 0, l2: 0, l3: 0)
    package static let one = UInt256(l0: 1, l1: 0, l2: 0, l3: 0)

    package init(l0: UInt64, l1: UInt64, l2: UInt64, l3: UInt64) {
        (self.l0, self.l1, self.l2, self.l3) = (l0, l1, l2, l3)
    }

    /// A big-endian number of at most 32 bytes (leading bytes beyond that must be zero); nil when it is larger.
    package init?(bigEndian bytes: some Collection<UInt8>) {
        var limbs: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var position = bytes.count  // of the next byte, counted from the least significant end, plus one
        for byte in bytes {
            position -= 1
            guard position < 32 else {
                if byte != 0 { return nil }
                continue
            }
            let value = UInt64(byte) << UInt64(8 * (position % 8))
            switch position / 8 {
            case 0: limbs.0 |= value
            case 1: limbs.1 |= value
            case 2: limbs.2 |= value
            default: limbs.3 |= value
            }
        }
        self.init(l0: limbs.0, l1: limbs.1, l2: limbs.2, l3: limbs.3)
    }

    /// From hexadecimal digits (constants in source), most significant first.
    package init(hex: String) {
        self.init(
            bigEndian: stride(from: 0, to: hex.count, by: 2).map { offset -> UInt8 in
                let start = hex.index(hex.startIndex, offsetBy: offset)
                return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
            })!
    }

    package var isZero: Bool { l0 | l1 | l2 | l3 == 0 }
    package var isOne: Bool { l0 == 1 && l1 | l2 | l3 == 0 }

    /// Bit `index` (0 = least significant).
    @inline(__always)
    package func bit(_ index: Int) -> Bool {
        let limb = index < 64 ? l0 : index < 128 ? l1 : index < 192 ? l2 : l3
        return limb >> UInt64(index & 63) & 1 == 1
    }

    /// `count` bits (at most 57) from `index` on, as a number; bits past the top are zero.
    @inline(__always)
    package func bits(from index: Int, count: Int) -> Int {
        let limbs = [l0, l1, l2, l3]
        let (limb, shift) = (index / 64, UInt64(index % 64))
        guard limb < 4 else { return 0 }
        var value = limbs[limb] >> shift
        if shift != 0, limb + 1 < 4 { value |= limbs[limb + 1] << (64 - shift) }
        return Int(truncatingIfNeeded: value & (1 << UInt64(count) - 1))
    }

    /// Four bits from `index` on.
    @inline(__always)
    package func nibble(_ index: Int) -> Int {
        let limb = index < 64 ? l0 : index < 128 ? l1 : index < 192 ? l2 : l3
        return Int(truncatingIfNeeded: limb >> UInt64(index & 63) & 0xF)
    }

    package static func < (a: UInt256, b: UInt256) -> Bool {
        if a.l3 != b.l3 { return a.l3 < b.l3 }
        if a.l2 != b.l2 { return a.l2 < b.l2 }
        if a.l1 != b.l1 { return a.l1 < b.l1 }
        return a.l0 < b.l0
    }

    /// `a + b` and the carry out.
    @inline(__always)
    package static func adding(_ a: UInt256, _ b: UInt256) -> (UInt256, Bool) {
        let (s0, c0) = a.l0.addingReportingOverflow(b.l0)
        let (t1, c1a) = a.l1.addingReportingOverflow(b.l1)
        let (s1, c1b) = t1.addingReportingOverflow(c0 ? 1 : 0)
        let (t2, c2a) = a.l2.addingReportingOverflow(b.l2)
        let (s2, c2b) = t2.addingReportingOverflow(c1a || c1b ? 1 : 0)
        let (t3, c3a) = a.l3.addingReportingOverflow(b.l3)
        let (s3, c3b) = t3.addingReportingOverflow(c2a || c2b ? 1 : 0)
        return (UInt256(l0: s0, l1: s1, l2: s2, l3: s3), c3a || c3b)
    }

    /// `a - b` and the borrow out.
    @inline(__always)
    package static func subtracting(_ a: UInt256, _ b: UInt256) -> (UInt256, Bool) {
        let (d0, b0) = a.l0.subtractingReportingOverflow(b.l0)
        let (t1, b1a) = a.l1.subtractingReportingOverflow(b.l1)
        let (d1, b1b) = t1.subtractingReportingOverflow(b0 ? 1 : 0)
        let (t2, b2a) = a.l2.subtractingReportingOverflow(b.l2)
        let (d2, b2b) = t2.subtractingReportingOverflow(b1a || b1b ? 1 : 0)
        let (t3, b3a) = a.l3.subtractingReportingOverflow(b.l3)
        let (d3, b3b) = t3.subtractingReportingOverflow(b2a || b2b ? 1 : 0)
        return (UInt256(l0: d0, l1: d1, l2: d2, l3: d3), b3a || b3b)
    }

    /// `a` where `mask` is all ones, `b` where it is zero, limb by limb: a choice without a branch.
    @inline(__always)
    package static func select(_ a: UInt256, _ b: UInt256, mask: UInt64) -> UInt256 {
        UInt256(
            l0: a.l0 & mask | b.l0 & ~mask, l1: a.l1 & mask | b.l1 & ~mask, l2: a.l2 & mask | b.l2 & ~mask,
            l3: a.l3 & mask | b.l3 & ~mask)
    }

    /// The 32 bytes, big-endian.
    package var bigEndianBytes: [UInt8] {
        [l3, l2, l1, l0].flatMap { limb in (0..<8).map { UInt8(truncatingIfNeeded: limb >> UInt64(56 - 8 * $0)) } }
    }
}
