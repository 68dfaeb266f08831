/// A signed number as Σ vᵢ·2^(62·i), i = 0...4: the lower four limbs in 0..<2⁶² once carried, the top one
/// signed. The numbers of `DivstepInverse`, which go negative and a little past 2²⁵⁶.
struct Signed62: Sendable {
    var v0: Int64, v1: Int64, v2: Int64, v3: Int64, v4: Int64

    /// 2⁶² − 1.
    static let mask: UInt64 = UInt64.max >> 2
    static let zero = Signed62(v0: 0, v1: 0, v2: 0, v3: 0, v4: 0)
    static let one = Signed62(v0: 1, v1: 0, v2: 0, v3: 0, v4: 0)

    init(v0: Int64, v1: Int64, v2: Int64, v3: Int64, v4: Int64) {
        (self.v0, self.v1, self.v2, self.v3, self.v4) = (v0, v1, v2, v3, v4)
    }

    init(_ x: UInt256) {
        let mask = Self.mask
        self.init(
            v0: Int64(bitPattern: x.l0 & mask), v1: Int64(bitPattern: (x.l0 >> 62 | x.l1 << 2) & mask),
            v2: Int64(bitPattern: (x.l1 >> 60 | x.l2 << 4) & mask),
            v3: Int64(bitPattern: (x.l2 >> 58 | x.l3 << 6) & mask), v4: Int64(bitPattern: x.l3 >> 56))
    }

    /// The number, for one in 0..<2²⁵⁶ with its limbs carried.
    var value: UInt256 {
        let (a, b, c, d, e) = (
            UInt64(bitPattern: v0), UInt64(bitPattern: v1), UInt64(bitPattern: v2), UInt64(bitPattern: v3),
            UInt64(bitPattern: v4)
        )
        return UInt256(l0: a | b << 62, l1: b >> 2 | c << 60, l2: c >> 4 | d << 58, l3: d >> 6 | e << 56)
    }

    var isZero: Bool { v0 | v1 | v2 | v3 | v4 == 0 }

    /// Limb `index`, 0...4.
    @inline(__always)
    subscript(index: Int) -> Int64 {
        get {
            switch index {
            case 0: v0
            case 1: v1
            case 2: v2
            case 3: v3
            default: v4
            }
        }
        set {
            switch index {
            case 0: v0 = newValue
            case 1: v1 = newValue
            case 2: v2 = newValue
            case 3: v3 = newValue
            default: v4 = newValue
            }
        }
    }

    /// Adds `m` limb by limb when `condition` holds (limbs may leave 0..<2⁶² until carried).
    mutating func addModulus(_ m: Signed62, if condition: Bool) {
        guard condition else { return }
        (v0, v1, v2, v3, v4) = (v0 &+ m.v0, v1 &+ m.v1, v2 &+ m.v2, v3 &+ m.v3, v4 &+ m.v4)
    }

    /// −x, limb by limb.
    mutating func negate() {
        (v0, v1, v2, v3, v4) = (0 &- v0, 0 &- v1, 0 &- v2, 0 &- v3, 0 &- v4)
    }

    /// Carries each lower limb's excess (signed) into the next, leaving them in 0..<2⁶².
    mutating func carryUp() {
        let mask = Int64(bitPattern: Self.mask)
        v1 &+= v0 >> 62
        v0 &= mask
        v2 &+= v1 >> 62
        v1 &= mask
        v3 &+= v2 >> 62
        v2 &= mask
        v4 &+= v3 >> 62
        v3 &= mask
    }
}

/// A signed 128-bit accumulator (two's complement, high word signed) for sums of 64-bit products.
struct SignedWide {
    var high: Int64
    var low: UInt64

    /// a · b.
    @inline(__always)
    init(_ a: Int64, _ b: Int64) {
        (high, low) = a.multipliedFullWidth(by: b)
    }

    @inline(__always)
    static func + (a: SignedWide, b: SignedWide) -> SignedWide {
        var sum = a
        let (low, carry) = a.low.addingReportingOverflow(b.low)
        sum.low = low
        sum.high = a.high &+ b.high &+ (carry ? 1 : 0)
        return sum
    }

    /// Divided by 2⁶², rounding down (an arithmetic shift).
    @inline(__always)
    mutating func shiftRight62() {
        low = low >> 62 | UInt64(bitPattern: high) << 2
        high >>= 62
    }

    /// The low 62 bits, as a limb.
    var low62: Int64 { Int64(bitPattern: low & Signed62.mask) }

    /// The low 64 bits as a signed number: the value, when it fits.
    var truncated: Int64 { Int64(bitPattern: low) }
}
