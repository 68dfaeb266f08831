/// A NIST prime curve y² = x³ − 3x + b over the integers modulo p (FIPS 186-4, D.1.2), with what ECDSA
/// verification needs: points in Jacobian coordinates held in Montgomery form, and u1·G + u2·Q.
package final class EllipticCurve: Sendable {
    /// A point (X/Z², Y/Z³); Z = 0 is the point at infinity.
    package struct Point: Sendable {
        package var x: UInt256, y: UInt256, z: UInt256
        package var isInfinity: Bool { z.isZero }
    }

    package let name: String
    /// Coordinates modulo p.
    package let field: MontgomeryField
    /// Whether p is P-256's prime: then the additions run on `P256Field`, the same numbers reduced faster.
    private let isP256: Bool
    /// Scalars modulo the group order n.
    package let scalars: MontgomeryField
    /// Bytes of a coordinate or scalar: 32 for P-256, 24 for P-192.
    package let byteCount: Int
    private let b: UInt256
    package let generator: Point
    /// G's table, from a static constant: built when first needed (about 25 ms for P-256), so a run that
    /// verifies nothing, or only on the other curve, does not pay for it.
    private let generatorTableSource: @Sendable () -> FixedBaseTable

    /// The generator, nine bits of a scalar at a time as signed digits.
    package var generatorTable: FixedBaseTable { generatorTableSource() }

    package init(
        name: String, p: String, n: String, b: String, gx: String, gy: String, byteCount: Int,
        generatorTable: @escaping @Sendable () -> FixedBaseTable
    ) {
        self.name = name
        field = MontgomeryField(modulus: UInt256(hex: p))
        isP256 = field.modulus == P256Reduction.prime
        scalars = MontgomeryField(modulus: UInt256(hex: n))
        self.byteCount = byteCount
        self.b = field.toMontgomery(UInt256(hex: b))
        generator = Point(
            x: field.toMontgomery(UInt256(hex: gx)), y: field.toMontgomery(UInt256(hex: gy)), z: field.one)
        generatorTableSource = generatorTable
    }

    package static let p256: EllipticCurve = EllipticCurve(
        name: "P-256",
        p: "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
        n: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551",
        b: "5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b",
        gx: "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296",
        gy: "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5", byteCount: 32,
        generatorTable: { p256GeneratorTable })
    private static let p256GeneratorTable: FixedBaseTable = FixedBaseTable(
        point: p256.generator, field: p256.field, bits: 256)

    package static let p192: EllipticCurve = EllipticCurve(
        name: "P-192",
        p: "fffffffffffffffffffffffffffffffeffffffffffffffff",
        n: "ffffffffffffffffffffffff99def836146bc9b1b4d22831",
        b: "64210519e59c80e70fa7e9ab72243049feb8deecc146b9b1",
        gx: "188da80eb03090f67cbf20eb43a18800f4ff0afd82ff1012",
        gy: "07192b95ffc8da78631011ed6b24cdd573f977a11e794811", byteCount: 24,
        generatorTable: { p192GeneratorTable })
    private static let p192GeneratorTable: FixedBaseTable = FixedBaseTable(
        point: p192.generator, field: p192.field, bits: 192)

    /// The affine point (x, y), or nil when it is not on the curve (a key must be checked before use).
    package func point(x: UInt256, y: UInt256) -> Point? {
        guard x < field.modulus, y < field.modulus else { return nil }
        let (mx, my) = (field.toMontgomery(x), field.toMontgomery(y))
        let x3 = field.multiply(field.square(mx), mx)
        let threeX = field.add(field.add(mx, mx), mx)
        let right = field.add(field.subtract(x3, threeX), b)
        guard field.square(my) == right else { return nil }
        return Point(x: mx, y: my, z: field.one)
    }

    /// 2·P.
    package func double(_ p: Point) -> Point { isP256 ? Self.double(p, P256Field()) : Self.double(p, field) }

    /// P + Q.
    package func add(_ p: Point, _ q: Point) -> Point {
        isP256 ? Self.add(p, q, P256Field()) : Self.add(p, q, field)
    }

    /// 2·P (dbl-2001-b, for a = −3).
    @inline(__always)
    package static func double(_ p: Point, _ f: some CoordinateField) -> Point {
        guard !p.isInfinity else { return p }
        let delta = f.square(p.z)
        let gamma = f.square(p.y)
        let beta = f.multiply(p.x, gamma)
        let t = f.multiply(f.subtract(p.x, delta), f.add(p.x, delta))
        let alpha = f.add(f.add(t, t), t)
        let beta2 = f.add(beta, beta)
        let beta4 = f.add(beta2, beta2)
        let x3 = f.subtract(f.square(alpha), f.add(beta4, beta4))
        let yz = f.add(p.y, p.z)
        let z3 = f.subtract(f.subtract(f.square(yz), gamma), delta)
        let gammaSquared = f.square(gamma)
        let twice = f.add(gammaSquared, gammaSquared)
        let fourTimes = f.add(twice, twice)
        let eightTimes = f.add(fourTimes, fourTimes)
        let y3 = f.subtract(f.multiply(alpha, f.subtract(beta4, x3)), eightTimes)
        return Point(x: x3, y: y3, z: z3)
    }

    /// P + Q, for any two points (add-1998-cmo-2).
    @inline(__always)
    package static func add(_ p: Point, _ q: Point, _ f: some CoordinateField) -> Point {
        if p.isInfinity { return q }
        if q.isInfinity { return p }
        let z1z1 = f.square(p.z)
        let z2z2 = f.square(q.z)
        let u1 = f.multiply(p.x, z2z2)
        let u2 = f.multiply(q.x, z1z1)
        let s1 = f.multiply(f.multiply(p.y, q.z), z2z2)
        let s2 = f.multiply(f.multiply(q.y, p.z), z1z1)
        let h = f.subtract(u2, u1)
        let r = f.subtract(s2, s1)
        if h.isZero { return r.isZero ? double(p, f) : Point(x: f.one, y: f.one, z: .zero) }
        let hh = f.square(h)
        let hhh = f.multiply(h, hh)
        let v = f.multiply(u1, hh)
        let x3 = f.subtract(f.subtract(f.square(r), hhh), f.add(v, v))
        let y3 = f.subtract(f.multiply(r, f.subtract(v, x3)), f.multiply(s1, hhh))
        let z3 = f.multiply(f.multiply(p.z, q.z), h)
        return Point(x: x3, y: y3, z: z3)
    }

    /// 0·P … 15·P.
    package static func multiples(of point: Point, field: some CoordinateField) -> [Point] {
        var table = [Point(x: field.one, y: field.one, z: .zero), point]
        for index in 2..<16 {
            table.append(
                index % 2 == 0 ? double(table[index / 2], field) : add(table[index - 1], point, field))
        }
        return table
    }

    /// u1·G + u2·Q: u1·G from the generator's table, u2·Q from `qTable` when Q has one (Apple's keys do),
    /// else four bits at a time with doublings.
    package func linearCombination(_ u1: UInt256, _ u2: UInt256, _ q: Point, qTable: FixedBaseTable?) -> Point {
        adding(u2, times: q, qTable: qTable, to: generatorMultiple(u1))
    }

    /// u·G, from the generator's table.
    package func generatorMultiple(_ u: UInt256) -> Point {
        let infinity = Point(x: field.one, y: field.one, z: .zero)
        return isP256 ? generatorTable.add(u, to: infinity, P256Field()) : generatorTable.add(u, to: infinity, field)
    }

    /// `sum + u·Q`: from `qTable` when Q has one, else four bits at a time with doublings.
    package func adding(_ u: UInt256, times q: Point, qTable: FixedBaseTable?, to sum: Point) -> Point {
        if let qTable { return isP256 ? qTable.add(u, to: sum, P256Field()) : qTable.add(u, to: sum, field) }
        return add(multiply(u, q), sum)
    }

    /// u·Q for any Q, four bits at a time.
    package func multiply(_ u: UInt256, _ q: Point) -> Point {
        isP256
            ? Self.multiply(u, q, digits: byteCount * 2, P256Field())
            : Self.multiply(u, q, digits: byteCount * 2, field)
    }

    /// u·Q, `digits` hexadecimal digits of u from the top, in the field `f`.
    private static func multiply(_ u: UInt256, _ q: Point, digits: Int, _ f: some CoordinateField) -> Point {
        let table = multiples(of: q, field: f)
        var result = Point(x: f.one, y: f.one, z: .zero)
        for index in stride(from: digits - 1, through: 0, by: -1) {
            if !result.isInfinity { result = double(double(double(double(result, f), f), f), f) }
            let nibble = u.nibble(index * 4)
            if nibble != 0 { result = add(result, table[nibble], f) }
        }
        return result
    }

    /// Whether the affine x of `p` is r or r + n (the two x coordinates with x mod n = r), without an
    /// inversion: X = x·Z², so compare X with r·Z².
    package func xMatches(_ p: Point, r: UInt256) -> Bool {
        let z2 = field.square(p.z)
        if field.multiply(field.toMontgomery(r), z2) == p.x { return true }
        let (shifted, carry) = UInt256.adding(r, scalars.modulus)
        guard !carry, shifted < field.modulus else { return false }
        return field.multiply(field.toMontgomery(shifted), z2) == p.x
    }

    /// The affine (x, y) of `p`, out of Montgomery form.
    package func affinePoint(_ p: Point) -> (x: UInt256, y: UInt256) {
        let zInverse = field.invert(p.z)
        let z2 = field.square(zInverse)
        return (
            field.fromMontgomery(field.multiply(p.x, z2)),
            field.fromMontgomery(field.multiply(p.y, field.multiply(z2, zInverse)))
        )
    }

    /// The affine x of `p`, out of Montgomery form.
    package func affineX(_ p: Point) -> UInt256 {
        let zInverse = field.invert(p.z)
        return field.fromMontgomery(field.multiply(p.x, field.square(zInverse)))
    }
}
