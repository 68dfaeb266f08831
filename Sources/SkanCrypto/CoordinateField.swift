/// The arithmetic the curve formulas are written against, on numbers in Montgomery form: the generic field
/// (`MontgomeryField`, any odd modulus) and P-256's (`P256Field`, whose constant prime needs fewer word
/// products). The formulas are generic over it, so each curve's additions are compiled for its own field and
/// the field operations inline into them.
package protocol CoordinateField {
    /// 1 in Montgomery form.
    var one: UInt256 { get }
    /// `a + b mod p` (both below p).
    func add(_ a: UInt256, _ b: UInt256) -> UInt256
    /// `a - b mod p` (both below p).
    func subtract(_ a: UInt256, _ b: UInt256) -> UInt256
    /// `a · b · 2^-256 mod p`.
    func multiply(_ a: UInt256, _ b: UInt256) -> UInt256
    /// `a² · 2^-256 mod p`.
    func square(_ a: UInt256) -> UInt256
}

extension MontgomeryField: CoordinateField {}

/// The field of P-256's coordinates, modulo p = 2²⁵⁶ − 2²²⁴ + 2¹⁹² + 2⁹⁶ − 1, in Montgomery form with R = 2²⁵⁶:
/// the same numbers as `MontgomeryField(modulus: p)`, reduced by `P256Reduction`.
package struct P256Field: CoordinateField {
    package init() {}

    /// R mod p = 2²⁵⁶ − p.
    package var one: UInt256 {
        UInt256(l0: 1, l1: 0xFFFF_FFFF_0000_0000, l2: 0xFFFF_FFFF_FFFF_FFFF, l3: 0x0000_0000_FFFF_FFFE)
    }

    // Sums and differences choose their result with a mask, not a branch: whether a sum wraps is as good as
    // random, so a branch would be mispredicted half the time (several times in every point addition).

    @inline(__always)
    package func add(_ a: UInt256, _ b: UInt256) -> UInt256 {
        let (sum, carry) = UInt256.adding(a, b)
        let (reduced, borrow) = UInt256.subtracting(sum, P256Reduction.prime)
        return UInt256.select(reduced, sum, mask: 0 &- (carry || !borrow ? 1 : 0))
    }

    @inline(__always)
    package func subtract(_ a: UInt256, _ b: UInt256) -> UInt256 {
        let (difference, borrow) = UInt256.subtracting(a, b)
        let mask = 0 &- UInt64(borrow ? 1 : 0)
        let p = P256Reduction.prime
        return UInt256.adding(
            difference, UInt256(l0: p.l0 & mask, l1: p.l1 & mask, l2: p.l2 & mask, l3: p.l3 & mask)
        ).0
    }

    @inline(__always)
    package func multiply(_ a: UInt256, _ b: UInt256) -> UInt256 {
        P256Reduction.reduce(UInt256.fullProduct(a, b))
    }

    @inline(__always)
    package func square(_ a: UInt256) -> UInt256 { P256Reduction.reduce(UInt256.fullSquare(a)) }
}
