/// Montgomery reduction for the P-256 prime p = 2²⁵⁶ − 2²²⁴ + 2¹⁹² + 2⁹⁶ − 1, without the multiplications the
/// generic reduction spends on p: p ≡ −1 mod 2⁶⁴, so −p⁻¹ mod 2⁶⁴ = 1 and the quotient digit of each round is the
/// lowest limb itself, and q·p is q·2²⁵⁶ − q·2²²⁴ + q·2¹⁹² + q·2⁹⁶ − q: shifts, plus one word product for the top
/// limb (0xFFFFFFFF00000001). A multiplication then takes 16 + 4 word products instead of 32, a square 10 + 4.
enum P256Reduction {
    static let prime = UInt256(
        l0: 0xFFFF_FFFF_FFFF_FFFF, l1: 0x0000_0000_FFFF_FFFF, l2: 0, l3: 0xFFFF_FFFF_0000_0001)

    /// `t · 2⁻²⁵⁶ mod p` for t < p·2²⁵⁶ (a product of two numbers below p).
    @inline(__always)
    static func reduce(_ t: UInt512) -> UInt256 {
        var (t1, t2, t3, t4, t5, t6, t7) = (t.l1, t.l2, t.l3, t.l4, t.l5, t.l6, t.l7)
        var t8: UInt64 = 0
        // Round i adds q·p with q = tᵢ at limb i: tᵢ + q·(2⁶⁴ − 1) = q·2⁶⁴ clears limb i and carries q into
        // limb i + 1, where with p's second limb (2³² − 1) it makes q·2³²; p's third limb is zero; its top
        // limb gives one word product at limb i + 3.
        var carry = round(t.l0, &t1, &t2, &t3, &t4)
        t5 = addWithCarry(t5, 0, &carry)
        t6 = addWithCarry(t6, 0, &carry)
        t7 = addWithCarry(t7, 0, &carry)
        t8 &+= carry
        carry = round(t1, &t2, &t3, &t4, &t5)
        t6 = addWithCarry(t6, 0, &carry)
        t7 = addWithCarry(t7, 0, &carry)
        t8 &+= carry
        carry = round(t2, &t3, &t4, &t5, &t6)
        t7 = addWithCarry(t7, 0, &carry)
        t8 &+= carry
        carry = round(t3, &t4, &t5, &t6, &t7)
        t8 &+= carry
        // (t + Q·p) / 2²⁵⁶ < 2p: one subtraction at most, chosen by a mask (see `P256Field.add`).
        let result = UInt256(l0: t4, l1: t5, l2: t6, l3: t7)
        let (reduced, borrow) = UInt256.subtracting(result, prime)
        let keep = UInt64(borrow ? 1 : 0) & (t8 == 0 ? 1 : 0)
        return UInt256.select(result, reduced, mask: 0 &- keep)
    }

    /// Adds q·p's limbs 1 to 4 (after limb 0 is cleared) to the four limbs from i + 1; returns the carry out.
    @inline(__always)
    private static func round(
        _ q: UInt64, _ a: inout UInt64, _ b: inout UInt64, _ c: inout UInt64, _ d: inout UInt64
    ) -> UInt64 {
        var carry: UInt64 = 0
        a = addWithCarry(a, q << 32, &carry)
        b = addWithCarry(b, q >> 32, &carry)
        let (high, low) = q.multipliedFullWidth(by: 0xFFFF_FFFF_0000_0001)
        c = addWithCarry(c, low, &carry)
        d = addWithCarry(d, high, &carry)
        return carry
    }
}
