import Foundation
import SkanCore
import SkanTestSupport
import Testing

@testable import SkanCrypto

/// The fast paths (Jacobian coordinates, fixed-base tables) against a slow reference written plainly here:
/// affine coordinates, one inversion per step, one bit at a time.
@Suite struct ReferenceCurveTests {
    struct Affine: Equatable {
        var x: UInt256, y: UInt256
        var infinity = false
    }

    let curve: EllipticCurve

    init() { curve = .p256 }
    init(curve: EllipticCurve) { self.curve = curve }

    var f: MontgomeryField { curve.field }

    func add(_ p: Affine, _ q: Affine) -> Affine {
        if p.infinity { return q }
        if q.infinity { return p }
        if p.x == q.x {
            guard p.y == q.y, !p.y.isZero else { return Affine(x: .zero, y: .zero, infinity: true) }
            return double(p)
        }
        let lambda = f.multiply(f.subtract(q.y, p.y), f.invertByFermat(f.subtract(q.x, p.x)))
        let x = f.subtract(f.subtract(f.square(lambda), p.x), q.x)
        return Affine(x: x, y: f.subtract(f.multiply(lambda, f.subtract(p.x, x)), p.y))
    }

    func double(_ p: Affine) -> Affine {
        if p.infinity || p.y.isZero { return Affine(x: .zero, y: .zero, infinity: true) }
        let three = f.toMontgomery(UInt256(l0: 3, l1: 0, l2: 0, l3: 0))
        let numerator = f.subtract(f.multiply(three, f.square(p.x)), three)  // 3x² + a, a = −3
        let lambda = f.multiply(numerator, f.invertByFermat(f.add(p.y, p.y)))
        let x = f.subtract(f.square(lambda), f.add(p.x, p.x))
        return Affine(x: x, y: f.subtract(f.multiply(lambda, f.subtract(p.x, x)), p.y))
    }

    func multiply(_ k: UInt256, _ p: Affine) -> Affine {
        var result = Affine(x: .zero, y: .zero, infinity: true)
        for bit in stride(from: 255, through: 0, by: -1) {
            result = double(result)
            if k.bit(bit) { result = add(result, p) }
        }
        return result
    }

    func affine(_ p: EllipticCurve.Point) -> Affine {
        guard !p.isInfinity else { return Affine(x: .zero, y: .zero, infinity: true) }
        let zInverse = f.invertByFermat(p.z)
        let z2 = f.square(zInverse)
        return Affine(x: f.multiply(p.x, z2), y: f.multiply(p.y, f.multiply(z2, zInverse)))
    }

    static func randomScalar(_ generator: inout SplitMix64, below n: UInt256) -> UInt256 {
        while true {
            let value = UInt256(
                l0: generator.next(), l1: generator.next(), l2: generator.next(),
                l3: n.l3 == 0 ? 0 : generator.next() % n.l3)
            if value < n { return value }
        }
    }

    @Test(arguments: [EllipticCurve.p256, EllipticCurve.p192])
    func linearCombinationsAgree(_ curve: EllipticCurve) throws {
        let reference = ReferenceCurveTests(curve: curve)
        var generator = SplitMix64(seed: 11)
        let f = curve.field
        let g = Affine(x: curve.generatorTable.firstX, y: curve.generatorTable.firstY)
        let q = reference.multiply(Self.randomScalar(&generator, below: curve.scalars.modulus), g)
        let point = EllipticCurve.Point(x: q.x, y: q.y, z: f.one)
        let key = try #require(ECDSAPublicKey(curve: curve, x: f.fromMontgomery(q.x), y: f.fromMontgomery(q.y)))
        let tabled = key.withTable()
        let n = curve.scalars.modulus
        let edges = Self.digitEdges(below: n)
        for round in 0..<(6 + edges.count) {
            let u1 = round < 6 ? Self.randomScalar(&generator, below: n) : edges[round - 6]
            let u2 =
                round == 0
                ? .zero : round < 6 ? Self.randomScalar(&generator, below: n) : edges[edges.count - 1 - (round - 6)]
            let expected = reference.add(reference.multiply(u1, g), reference.multiply(u2, q))
            #expect(reference.affine(curve.linearCombination(u1, u2, point, qTable: nil)) == expected)
            #expect(reference.affine(curve.linearCombination(u1, u2, point, qTable: tabled.table)) == expected)
        }
    }

    /// Scalars where the tables' signed digits carry: n − 1, every nine-bit window 256 (the largest digit),
    /// every window 257 (the smallest that turns negative and carries), windows of all ones, and 1.
    static func digitEdges(below n: UInt256) -> [UInt256] {
        func everyWindow(_ value: Int) -> UInt256 {
            var limbs: [UInt64] = [0, 0, 0, 0]
            for window in 0..<29 {
                for bit in 0..<9 where value >> bit & 1 == 1 && window * 9 + bit < 256 {
                    limbs[(window * 9 + bit) / 64] |= 1 << UInt64((window * 9 + bit) % 64)
                }
            }
            let wide = UInt256(l0: limbs[0], l1: limbs[1], l2: limbs[2], l3: limbs[3])
            // Below n, keeping the pattern in the low windows: the top limb cleared as far as needed.
            return wide < n ? wide : UInt256(l0: wide.l0, l1: wide.l1, l2: wide.l2, l3: wide.l3 & (n.l3 >> 1))
        }
        return [UInt256.subtracting(n, .one).0, everyWindow(256), everyWindow(257), everyWindow(511), .one]
    }

    /// The signed digits put back together give the scalar, and each is one the table holds.
    @Test func signedDigitsAddUpToTheScalar() {
        var generator = SplitMix64(seed: 12)
        let n = EllipticCurve.p256.scalars.modulus
        let scalars = Self.digitEdges(below: n) + (0..<200).map { _ in Self.randomScalar(&generator, below: n) }
        for u in scalars {
            // Σ dᵢ·512^i with signed carries (the sum is u, so it fits).
            var digits: [Int] = []
            FixedBaseTable.forEachDigit(u, windows: 29) { _, digit in digits.append(digit) }
            #expect(digits.allSatisfy { (-255...256).contains($0) }, "\(u)")
            // 54 bits a limb (six digits), least significant first: a digit shifted within one stays far from
            // Int's top.
            var limbs = [Int](repeating: 0, count: 5)
            for (window, digit) in digits.enumerated() {
                limbs[window / 6] += digit << (9 * (window % 6))
            }
            for index in 0..<4 {
                let carry = limbs[index] >> 54
                limbs[index] -= carry << 54
                limbs[index + 1] += carry
            }
            var expected = [Int](repeating: 0, count: 5)
            for bit in 0..<256 where u.bit(bit) { expected[bit / 54] |= 1 << (bit % 54) }
            #expect(limbs == expected, "\(u)")
        }
    }
}

extension EllipticCurve: CustomTestStringConvertible {
    /// The curve's name, so parameterised test cases read P-256 and P-192.
    public var testDescription: String { name }
}

/// The binary inversion against Fermat's, in the four fields verification uses.
@Suite struct InversionTests {
    @Test(arguments: [EllipticCurve.p256, EllipticCurve.p192])
    func inversionAgreesWithFermat(_ curve: EllipticCurve) {
        var generator = SplitMix64(seed: 3)
        for field in [curve.field, curve.scalars] {
            let m = field.modulus
            let edges = [UInt256.one, UInt256(l0: 2, l1: 0, l2: 0, l3: 0), UInt256.subtracting(m, .one).0]
            let randoms = (0..<200).map { _ in ReferenceCurveTests.randomScalar(&generator, below: m) }
            for value in edges + randoms where !value.isZero {
                let a = field.toMontgomery(value)
                let inverse = field.invert(a)
                #expect(inverse == field.invertByFermat(a))
                #expect(field.multiply(a, inverse) == field.one)
            }
            #expect(field.invert(.zero) == .zero)
        }
    }

    /// The division steps end (no fallback to Fermat's way) and invert, on plain numbers: powers of two, the
    /// numbers just below m and below its powers of two, and random ones.
    @Test(arguments: [EllipticCurve.p256, EllipticCurve.p192])
    func divisionStepsEndAndInvert(_ curve: EllipticCurve) throws {
        var generator = SplitMix64(seed: 4)
        for field in [curve.field, curve.scalars] {
            let m = field.modulus
            let inverse = DivstepInverse(modulus: m)
            let powers = (0..<256).map { bit -> UInt256 in
                var limbs: [UInt64] = [0, 0, 0, 0]
                limbs[bit / 64] = 1 << UInt64(bit % 64)
                return UInt256(l0: limbs[0], l1: limbs[1], l2: limbs[2], l3: limbs[3])
            }.filter { $0 < m }
            let belowM = (1...64).map { UInt256.subtracting(m, UInt256(l0: UInt64($0), l1: 0, l2: 0, l3: 0)).0 }
            let randoms = (0..<1000).map { _ in ReferenceCurveTests.randomScalar(&generator, below: m) }
            for x in powers + belowM + randoms where !x.isZero {
                let result = try #require(inverse.inverse(x), "\(x)")
                // x · x⁻¹ = 1, checked in Montgomery form: (xR)·(x⁻¹R)·R⁻¹ = R.
                #expect(field.multiply(field.toMontgomery(x), field.toMontgomery(result)) == field.one, "\(x)")
                #expect(result < m)
            }
        }
    }
}
