import Foundation
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
        for round in 0..<6 {
            let u1 = Self.randomScalar(&generator, below: curve.scalars.modulus)
            let u2 = round == 0 ? .zero : Self.randomScalar(&generator, below: curve.scalars.modulus)
            let expected = reference.add(reference.multiply(u1, g), reference.multiply(u2, q))
            #expect(reference.affine(curve.linearCombination(u1, u2, point, qTable: nil)) == expected)
            #expect(reference.affine(curve.linearCombination(u1, u2, point, qTable: tabled.table)) == expected)
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
}
