/// u·P for one fixed point P (the generator, or one of Apple's keys), nine bits of u at a time as signed
/// digits: `j · 512^i · P` for every window i and j in 1...256, in affine coordinates; a digit −j adds the
/// entry negated (y ↦ −y). u·P then costs one mixed addition per nonzero digit, 29 for P-256 (eight unsigned
/// bits a time took 32, from a larger table), and no doubling. About 0.45 MiB per point, built once per process.
package final class FixedBaseTable: Sendable {
    /// Bits per digit.
    static let digitBits = 9
    /// Entries per window: the digits' largest magnitude, 2^(digitBits − 1).
    static let entriesPerWindow = 1 << (digitBits - 1)

    /// x and y (Montgomery form) of `j · 512^i · P` at `i · 256 + j − 1`.
    private let xs: [UInt256]
    private let ys: [UInt256]
    private let windows: Int

    /// The table for scalars of `bits` bits (the curve's order's): one window more than the bits need when
    /// their count is a multiple of nine, for the carry out of the top digit.
    package init(point: EllipticCurve.Point, field: MontgomeryField, bits: Int) {
        let windows = bits / Self.digitBits + 1
        self.windows = windows
        var jacobian: [EllipticCurve.Point] = []
        jacobian.reserveCapacity(windows * Self.entriesPerWindow)
        var base = point
        for _ in 0..<windows {
            var multiple = base
            for _ in 1...Self.entriesPerWindow {
                jacobian.append(multiple)
                multiple = EllipticCurve.add(multiple, base, field)
            }
            for _ in 0..<Self.digitBits { base = EllipticCurve.double(base, field) }
        }
        // To affine with one inversion for all (Montgomery's trick): prefix products of Z, then unwind.
        var prefix: [UInt256] = []
        prefix.reserveCapacity(jacobian.count)
        var product = field.one
        for point in jacobian {
            prefix.append(product)
            product = field.multiply(product, point.z)
        }
        var inverse = field.invert(product)
        var xs = [UInt256](repeating: .zero, count: jacobian.count)
        var ys = xs
        for index in jacobian.indices.reversed() {
            let zInverse = field.multiply(inverse, prefix[index])
            inverse = field.multiply(inverse, jacobian[index].z)
            let zInverse2 = field.square(zInverse)
            xs[index] = field.multiply(jacobian[index].x, zInverse2)
            ys[index] = field.multiply(jacobian[index].y, field.multiply(zInverse2, zInverse))
        }
        (self.xs, self.ys) = (xs, ys)
    }

    /// P itself (Montgomery form): the entry for window 0, digit 1.
    package var firstX: UInt256 { xs[0] }
    package var firstY: UInt256 { ys[0] }

    /// u's signed digits, least significant first: u = Σ dᵢ · 512^i with dᵢ in −255...256. Each window takes
    /// nine bits plus the carry from the one below; above 256 it becomes negative and carries one up.
    @inline(__always)
    package static func forEachDigit(_ u: UInt256, windows: Int, _ body: (_ window: Int, _ digit: Int) -> Void) {
        var carry = 0
        for window in 0..<windows {
            let value = u.bits(from: window * digitBits, count: digitBits) + carry
            carry = value > entriesPerWindow ? 1 : 0
            body(window, value - carry << digitBits)
        }
    }

    /// `accumulator + u·P`. The table is larger than a core's cache and each addition is longer than the
    /// processor looks ahead, so the entries are all loaded first, their cache misses overlapping, and then
    /// added: loaded one at a time, every miss stalled the additions.
    @inline(__always)
    package func add(_ u: UInt256, to accumulator: EllipticCurve.Point, _ field: some CoordinateField)
        -> EllipticCurve.Point
    {
        var entries: [UInt256] = []
        entries.reserveCapacity(2 * windows)
        Self.forEachDigit(u, windows: windows) { window, digit in
            guard digit != 0 else { return }
            let index = window * Self.entriesPerWindow + abs(digit) - 1
            entries.append(xs[index])
            entries.append(digit > 0 ? ys[index] : field.subtract(.zero, ys[index]))
        }
        var result = accumulator
        for pair in stride(from: 0, to: entries.count, by: 2) {
            result = Self.addAffine(result, entries[pair], entries[pair + 1], field)
        }
        return result
    }

    /// P + (x, y) for an affine (x, y) (madd, from add-1998-cmo with Z2 = 1).
    @inline(__always)
    package static func addAffine(_ p: EllipticCurve.Point, _ x: UInt256, _ y: UInt256, _ f: some CoordinateField)
        -> EllipticCurve.Point
    {
        if p.isInfinity { return EllipticCurve.Point(x: x, y: y, z: f.one) }
        let z1z1 = f.square(p.z)
        let u2 = f.multiply(x, z1z1)
        let s2 = f.multiply(f.multiply(y, p.z), z1z1)
        let h = f.subtract(u2, p.x)
        let r = f.subtract(s2, p.y)
        if h.isZero {
            return r.isZero
                ? EllipticCurve.double(EllipticCurve.Point(x: x, y: y, z: f.one), f)
                : EllipticCurve.Point(x: f.one, y: f.one, z: .zero)
        }
        let hh = f.square(h)
        let hhh = f.multiply(h, hh)
        let v = f.multiply(p.x, hh)
        let x3 = f.subtract(f.subtract(f.square(r), hhh), f.add(v, v))
        let y3 = f.subtract(f.multiply(r, f.subtract(v, x3)), f.multiply(p.y, hhh))
        return EllipticCurve.Point(x: x3, y: y3, z: f.multiply(p.z, h))
    }
}
