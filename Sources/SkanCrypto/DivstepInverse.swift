/// Modular inversion by division steps (Bernstein and Yang, "Fast constant-time gcd computation and modular
/// inversion", 2019), in the variable-time form described in libsecp256k1's `doc/safegcd_implementation.md`:
/// 62 steps at a time are worked out on the numbers' low 64 bits alone, as a 2×2 matrix, then applied to the
/// full numbers. The binary extended Euclidean algorithm it replaces took one data-dependent branch per bit and
/// was a sixth of a verification; this takes a dozen matrix applications. Inputs are public (signatures), so the
/// running time may depend on them.
///
/// Numbers are held as five signed 62-bit limbs (`Signed62`), so that a limb times a matrix entry plus a
/// carry fits the 128-bit accumulator (`SignedWide`).
struct DivstepInverse: Sendable {
    private let modulus: Signed62
    /// `modulus⁻¹ mod 2⁶²`.
    private let modulusInverse62: UInt64

    /// For an odd modulus.
    init(modulus: UInt256) {
        self.modulus = Signed62(modulus)
        var inverse: UInt64 = 1
        for _ in 0..<6 { inverse = inverse &* (2 &- modulus.l0 &* inverse) }  // Newton: doubles correct bits
        modulusInverse62 = inverse & Signed62.mask
    }

    /// `x⁻¹ mod m` for x in 1..<m with gcd(x, m) = 1 (m prime); nil if the steps did not end, which the paper's
    /// bound rules out (at most 724 steps for 256-bit numbers, 12 rounds of 62) and callers treat as a fault.
    func inverse(_ x: UInt256) -> UInt256? {
        var (f, g) = (modulus, Signed62(x))
        var (d, e) = (Signed62.zero, Signed62.one)
        var eta: Int64 = -1  // −δ, δ starting at 1
        for _ in 0..<24 {
            let t = Self.divsteps(&eta, UInt64(bitPattern: f.v0), UInt64(bitPattern: g.v0))
            update(&d, &e, t)
            Self.update(&f, &g, t)
            if g.isZero { return normalized(d, negate: f.v4 < 0).value }
        }
        return nil
    }

    /// The matrix of 62 division steps, times 2⁶², from the low bits of f (odd) and g: [f, g] · 2⁶² becomes
    /// [u·f + v·g, q·f + r·g]. Runs of zero bits are taken at once, then up to four bits of g are cleared with
    /// one multiple of f (−f⁻¹ mod 16 from a table).
    private static func divsteps(_ eta: inout Int64, _ f0: UInt64, _ g0: UInt64) -> Matrix {
        // −f⁻¹ mod 16 for odd f mod 16 = 1, 3, ..., 15.
        let negatedInverses: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
            (15, 5, 3, 9, 7, 13, 11, 1)
        var (u, v, q, r): (UInt64, UInt64, UInt64, UInt64) = (1, 0, 0, 1)
        var (f, g) = (f0, g0)
        var left = 62
        while true {
            let zeros = (g | UInt64.max << UInt64(left)).trailingZeroBitCount
            g >>= UInt64(zeros)
            u <<= UInt64(zeros)
            v <<= UInt64(zeros)
            eta -= Int64(zeros)
            left -= zeros
            if left == 0 { break }
            // g is odd.
            if eta < 0 {
                eta = -eta
                (f, g) = (g, 0 &- f)
                (u, q) = (q, 0 &- u)
                (v, r) = (r, 0 &- v)
            }
            let limit = min(Int(eta) + 1, left, 4)
            let negatedInverse: UInt64
            switch (f & 15) >> 1 {
            case 0: negatedInverse = negatedInverses.0
            case 1: negatedInverse = negatedInverses.1
            case 2: negatedInverse = negatedInverses.2
            case 3: negatedInverse = negatedInverses.3
            case 4: negatedInverse = negatedInverses.4
            case 5: negatedInverse = negatedInverses.5
            case 6: negatedInverse = negatedInverses.6
            default: negatedInverse = negatedInverses.7
            }
            let w = g &* negatedInverse & (1 << UInt64(limit) - 1)
            g = g &+ w &* f
            q = q &+ w &* u
            r = r &+ w &* v
        }
        return Matrix(
            u: Int64(bitPattern: u), v: Int64(bitPattern: v), q: Int64(bitPattern: q), r: Int64(bitPattern: r))
    }

    /// [f, g] ← t·[f, g] / 2⁶² (exact: the steps made the low 62 bits zero).
    private static func update(_ f: inout Signed62, _ g: inout Signed62, _ t: Matrix) {
        var cf = SignedWide(t.u, f.v0) + SignedWide(t.v, g.v0)
        var cg = SignedWide(t.q, f.v0) + SignedWide(t.r, g.v0)
        cf.shiftRight62()
        cg.shiftRight62()
        var (newF, newG) = (Signed62.zero, Signed62.zero)
        for limb in 1...4 {
            cf = cf + SignedWide(t.u, f[limb]) + SignedWide(t.v, g[limb])
            cg = cg + SignedWide(t.q, f[limb]) + SignedWide(t.r, g[limb])
            newF[limb - 1] = cf.low62
            newG[limb - 1] = cg.low62
            cf.shiftRight62()
            cg.shiftRight62()
        }
        newF.v4 = cf.truncated
        newG.v4 = cg.truncated
        (f, g) = (newF, newG)
    }

    /// [d, e] ← t·[d, e] / 2⁶² mod m, kept in (−2m, m): the multiples of m that clear the low 62 bits are added
    /// first, with m once more for each of d and e that is negative.
    private func update(_ d: inout Signed62, _ e: inout Signed62, _ t: Matrix) {
        let (signD, signE) = (d.v4 >> 63, e.v4 >> 63)
        var md = (t.u & signD) &+ (t.v & signE)
        var me = (t.q & signD) &+ (t.r & signE)
        var cd = SignedWide(t.u, d.v0) + SignedWide(t.v, e.v0)
        var ce = SignedWide(t.q, d.v0) + SignedWide(t.r, e.v0)
        md &-= Int64(bitPattern: (modulusInverse62 &* cd.low &+ UInt64(bitPattern: md)) & Signed62.mask)
        me &-= Int64(bitPattern: (modulusInverse62 &* ce.low &+ UInt64(bitPattern: me)) & Signed62.mask)
        cd = cd + SignedWide(modulus.v0, md)
        ce = ce + SignedWide(modulus.v0, me)
        cd.shiftRight62()
        ce.shiftRight62()
        var (newD, newE) = (Signed62.zero, Signed62.zero)
        for limb in 1...4 {
            cd = cd + SignedWide(t.u, d[limb]) + SignedWide(t.v, e[limb]) + SignedWide(modulus[limb], md)
            ce = ce + SignedWide(t.q, d[limb]) + SignedWide(t.r, e[limb]) + SignedWide(modulus[limb], me)
            newD[limb - 1] = cd.low62
            newE[limb - 1] = ce.low62
            cd.shiftRight62()
            ce.shiftRight62()
        }
        newD.v4 = cd.truncated
        newE.v4 = ce.truncated
        (d, e) = (newD, newE)
    }

    /// `±x mod m` in 0..<m, from x in (−2m, m).
    private func normalized(_ x: Signed62, negate: Bool) -> Signed62 {
        var r = x
        r.addModulus(modulus, if: r.v4 < 0)
        if negate { r.negate() }
        r.carryUp()
        r.addModulus(modulus, if: r.v4 < 0)
        r.carryUp()
        return r
    }

    /// A step matrix, times 2⁶²: |u| + |v| ≤ 2⁶² and |q| + |r| ≤ 2⁶².
    private struct Matrix {
        var u: Int64, v: Int64, q: Int64, r: Int64
    }
}
