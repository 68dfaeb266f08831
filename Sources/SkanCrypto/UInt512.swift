/// A product of two `UInt256` before it is reduced: eight 64-bit limbs, least significant first.
package struct UInt512: Equatable, Sendable {
    package var l0: UInt64, l1: UInt64, l2: UInt64, l3: UInt64, l4: UInt64, l5: UInt64, l6: UInt64, l7: UInt64
}

/// `t + x·y + carry` into `t` (low half) and `carry` (high half); never overflows: (2⁶⁴−1)² + 2·(2⁶⁴−1) < 2¹²⁸.
@inline(__always)
func multiplyAccumulate(_ t: inout UInt64, _ x: UInt64, _ y: UInt64, _ carry: inout UInt64) {
    let (high, low) = x.multipliedFullWidth(by: y)
    let (s1, o1) = t.addingReportingOverflow(low)
    let (s2, o2) = s1.addingReportingOverflow(carry)
    t = s2
    carry = high &+ (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
}

/// `a + b + carry` (carry 0 or 1), the carry out left in `carry`.
@inline(__always)
func addWithCarry(_ a: UInt64, _ b: UInt64, _ carry: inout UInt64) -> UInt64 {
    let (s1, o1) = a.addingReportingOverflow(b)
    let (s2, o2) = s1.addingReportingOverflow(carry)
    carry = (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
    return s2
}

extension UInt256 {
    /// `a · b` in full: 16 word products, row by row.
    @inline(__always)
    package static func fullProduct(_ a: UInt256, _ b: UInt256) -> UInt512 {
        var (t0, t1, t2, t3, t4, t5, t6, t7): (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
            (0, 0, 0, 0, 0, 0, 0, 0)
        var carry: UInt64 = 0
        multiplyAccumulate(&t0, a.l0, b.l0, &carry)
        multiplyAccumulate(&t1, a.l0, b.l1, &carry)
        multiplyAccumulate(&t2, a.l0, b.l2, &carry)
        multiplyAccumulate(&t3, a.l0, b.l3, &carry)
        t4 = carry
        carry = 0
        multiplyAccumulate(&t1, a.l1, b.l0, &carry)
        multiplyAccumulate(&t2, a.l1, b.l1, &carry)
        multiplyAccumulate(&t3, a.l1, b.l2, &carry)
        multiplyAccumulate(&t4, a.l1, b.l3, &carry)
        t5 = carry
        carry = 0
        multiplyAccumulate(&t2, a.l2, b.l0, &carry)
        multiplyAccumulate(&t3, a.l2, b.l1, &carry)
        multiplyAccumulate(&t4, a.l2, b.l2, &carry)
        multiplyAccumulate(&t5, a.l2, b.l3, &carry)
        t6 = carry
        carry = 0
        multiplyAccumulate(&t3, a.l3, b.l0, &carry)
        multiplyAccumulate(&t4, a.l3, b.l1, &carry)
        multiplyAccumulate(&t5, a.l3, b.l2, &carry)
        multiplyAccumulate(&t6, a.l3, b.l3, &carry)
        t7 = carry
        return UInt512(l0: t0, l1: t1, l2: t2, l3: t3, l4: t4, l5: t5, l6: t6, l7: t7)
    }

    /// `a²` in full with 10 word products instead of 16: each cross product aᵢ·aⱼ (i < j) once, doubled by a
    /// shift, then the squares aᵢ² added.
    @inline(__always)
    package static func fullSquare(_ a: UInt256) -> UInt512 {
        var (t1, t2, t3, t4, t5, t6): (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
        var carry: UInt64 = 0
        multiplyAccumulate(&t1, a.l0, a.l1, &carry)
        multiplyAccumulate(&t2, a.l0, a.l2, &carry)
        multiplyAccumulate(&t3, a.l0, a.l3, &carry)
        t4 = carry
        carry = 0
        multiplyAccumulate(&t3, a.l1, a.l2, &carry)
        multiplyAccumulate(&t4, a.l1, a.l3, &carry)
        t5 = carry
        carry = 0
        multiplyAccumulate(&t5, a.l2, a.l3, &carry)
        t6 = carry
        // Doubled: the cross products once more.
        let t7 = t6 >> 63
        t6 = t6 << 1 | t5 >> 63
        t5 = t5 << 1 | t4 >> 63
        t4 = t4 << 1 | t3 >> 63
        t3 = t3 << 1 | t2 >> 63
        t2 = t2 << 1 | t1 >> 63
        t1 = t1 << 1
        let (h0, s0) = a.l0.multipliedFullWidth(by: a.l0)
        let (h1, s1) = a.l1.multipliedFullWidth(by: a.l1)
        let (h2, s2) = a.l2.multipliedFullWidth(by: a.l2)
        let (h3, s3) = a.l3.multipliedFullWidth(by: a.l3)
        carry = 0
        let r1 = addWithCarry(t1, h0, &carry)
        let r2 = addWithCarry(t2, s1, &carry)
        let r3 = addWithCarry(t3, h1, &carry)
        let r4 = addWithCarry(t4, s2, &carry)
        let r5 = addWithCarry(t5, h2, &carry)
        let r6 = addWithCarry(t6, s3, &carry)
        let r7 = addWithCarry(t7, h3, &carry)  // a² < 2⁵¹²: no carry out
        return UInt512(l0: s0, l1: r1, l2: r2, l3: r3, l4: r4, l5: r5, l6: r6, l7: r7)
    }
}
