/// u·P for one fixed point P (the generator, or one of Apple's keys), eight bits of u at a time:
/// `j · 256^i · P` for every window i and byte j, in affine coordinates, so u·P costs one mixed addition per
/// nonzero byte of u and no doubling. About 0.5 MiB per point, built once per process.
package final class FixedBaseTable: Sendable {
    /// x and y (Montgomery form) of `j · 256^i · P` at `i · 255 + j − 1`.
    private let xs: [UInt256]
    private let ys: [UInt256]
    private let windows: Int

    package init(point: EllipticCurve.Point, field: MontgomeryField, windows: Int) {
        self.windows = windows
        var jacobian: [EllipticCurve.Point] = []
        jacobian.reserveCapacity(windows * 255)
        var base = point
        for _ in 0..<windows {
            var multiple = base
            for _ in 1...255 {
                jacobian.append(multiple)
                multiple = EllipticCurve.add(multiple, base, field)
            }
            for _ in 0..<8 { base = EllipticCurve.double(base, field) }
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

    /// P itself (Montgomery form): the entry for window 0, byte 1.
    package var firstX: UInt256 { xs[0] }
    package var firstY: UInt256 { ys[0] }

    /// `accumulator + u·P`. The table is larger than a core's cache and each addition is longer than the
    /// processor looks ahead, so the entries are all loaded first, their cache misses overlapping, and then
    /// added: loaded one at a time, every miss stalled the additions.
    @inline(__always)
    package func add(_ u: UInt256, to accumulator: EllipticCurve.Point, _ field: some CoordinateField)
        -> EllipticCurve.Point
    {
        var entries: [UInt256] = []
        entries.reserveCapacity(2 * windows)
        for window in 0..<windows {
            let limb = window < 8 ? u.l0 : window < 16 ? u.l1 : window < 24 ? u.l2 : u.l3
            let byte = Int(truncatingIfNeeded: limb >> UInt64(8 * (window % 8)) & 0xFF)
            guard byte != 0 else { continue }
            let index = window * 255 + byte - 1
            entries.append(xs[index])
            entries.append(ys[index])
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
