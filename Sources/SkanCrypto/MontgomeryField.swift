/// Arithmetic modulo an odd number `m` below 2^256 in Montgomery form (a value `a` is held as
/// `a · 2^256 mod m`), so that a product needs no division: the field of a curve's coordinates, and the
/// integers modulo the curve's order for the scalars.
package struct MontgomeryField {
    package let modulus: UInt256
    /// `-m⁻¹ mod 2^64`.
    private let inverse: UInt64
    /// `2^512 mod m`, which takes a number into Montgomery form.
    private let r2: UInt256
    /// 1 in Montgomery form.
    package let one: UInt256
    /// Inversion modulo m.
    private let divsteps: DivstepInverse

    package init(modulus: UInt256) {
        self.modulus = modulus
        var inverse: UInt64 = 1
        for _ in 0..<6 { inverse = inverse &* (2 &- modulus.l0 &* inverse) }  // Newton: doubles correct bits
        self.inverse = 0 &- inverse
        // 2^256 mod m by doubling 1 256 times, then 2^512 mod m by 256 more doublings.
        var value = UInt256.one
        var r = UInt256.zero
        for step in 0..<512 {
            value = Self.addModulo(value, value, modulus)
            if step == 255 { r = value }
        }
        one = r
        r2 = value
        divsteps = DivstepInverse(modulus: modulus)
    }

    @inline(__always)
    private static func addModulo(_ a: UInt256, _ b: UInt256, _ m: UInt256) -> UInt256 {
        let (sum, carry) = UInt256.adding(a, b)
        if carry || !(sum < m) { return UInt256.subtracting(sum, m).0 }
        return sum
    }

    /// `a + b mod m` (both below m).
    @inline(__always)
    package func add(_ a: UInt256, _ b: UInt256) -> UInt256 { Self.addModulo(a, b, modulus) }

    /// `a - b mod m` (both below m).
    @inline(__always)
    package func subtract(_ a: UInt256, _ b: UInt256) -> UInt256 {
        let (difference, borrow) = UInt256.subtracting(a, b)
        return borrow ? UInt256.adding(difference, modulus).0 : difference
    }

    /// `a · b · 2^-256 mod m` (CIOS Montgomery multiplication): the arithmetic of P-192 and of the scalars,
    /// and the reference `P256Field` is tested against.
    @inline(__always)
    package func multiply(_ a: UInt256, _ b: UInt256) -> UInt256 {
        var t0: UInt64 = 0
        var t1: UInt64 = 0
        var t2: UInt64 = 0
        var t3: UInt64 = 0
        var t4: UInt64 = 0
        let m = modulus
        @inline(__always) func step(_ ai: UInt64) {
            // t += ai · b
            var carry: UInt64 = 0
            @inline(__always) func mac(_ t: inout UInt64, _ x: UInt64) {
                let (high, low) = ai.multipliedFullWidth(by: x)
                let (s1, o1) = t.addingReportingOverflow(low)
                let (s2, o2) = s1.addingReportingOverflow(carry)
                t = s2
                carry = high &+ (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
            }
            mac(&t0, b.l0)
            mac(&t1, b.l1)
            mac(&t2, b.l2)
            mac(&t3, b.l3)
            let (s4, o4) = t4.addingReportingOverflow(carry)
            t4 = s4
            let t5: UInt64 = o4 ? 1 : 0
            // t += (t0 · inverse mod 2^64) · m, then t /= 2^64
            let q = t0 &* inverse
            carry = 0
            @inline(__always) func macq(_ t: inout UInt64, _ x: UInt64) {
                let (high, low) = q.multipliedFullWidth(by: x)
                let (s1, o1) = t.addingReportingOverflow(low)
                let (s2, o2) = s1.addingReportingOverflow(carry)
                t = s2
                carry = high &+ (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
            }
            macq(&t0, m.l0)  // t0 becomes 0
            macq(&t1, m.l1)
            macq(&t2, m.l2)
            macq(&t3, m.l3)
            let (s4b, o4b) = t4.addingReportingOverflow(carry)
            (t0, t1, t2, t3, t4) = (t1, t2, t3, s4b, t5 &+ (o4b ? 1 : 0))
        }
        step(a.l0)
        step(a.l1)
        step(a.l2)
        step(a.l3)
        let result = UInt256(l0: t0, l1: t1, l2: t2, l3: t3)
        if t4 != 0 || !(result < m) { return UInt256.subtracting(result, m).0 }
        return result
    }

    /// `a² · 2^-256 mod m`.
    @inline(__always)
    package func square(_ a: UInt256) -> UInt256 { multiply(a, a) }

    /// `a` (below m) into Montgomery form.
    package func toMontgomery(_ a: UInt256) -> UInt256 { multiply(a, r2) }

    /// Out of Montgomery form.
    package func fromMontgomery(_ a: UInt256) -> UInt256 { multiply(a, .one) }

    /// `a⁻¹` in Montgomery form, for an odd prime modulus; zero for zero. The plain number a·R is inverted by
    /// division steps (`DivstepInverse`), then two multiplications by R² put the inverse back in Montgomery
    /// form: (aR)⁻¹·R²·R²·R⁻² = a⁻¹R. A verification needs one (1/s); Fermat's 384 multiplications made it a
    /// third of the time, the binary extended Euclidean algorithm a sixth.
    package func invert(_ a: UInt256) -> UInt256 {
        guard !a.isZero else { return .zero }
        // The steps always end for a prime modulus; Fermat's way stands behind them all the same.
        guard let inverse = divsteps.inverse(a) else { return invertByFermat(a) }
        return multiply(multiply(inverse, r2), r2)
    }

    /// `a⁻¹` by Fermat's little theorem (a^(m−2)): slower, plainly right; the reference the tests hold
    /// `invert` to.
    package func invertByFermat(_ a: UInt256) -> UInt256 {
        let exponent = UInt256.subtracting(modulus, UInt256(l0: 2, l1: 0, l2: 0, l3: 0)).0
        var result = one
        for index in stride(from: 255, through: 0, by: -1) {
            result = square(result)
            if exponent.bit(index) { result = multiply(result, a) }
        }
        return a.isZero ? .zero : result
    }
}
