import SkanCore
import SkanTestSupport
import Testing

@testable import SkanCrypto

/// P-256's own field arithmetic (`P256Field`: the special reduction, the 10-product square, the branch-free
/// sums) against the generic Montgomery field on the same prime, on the numbers where carries and the final
/// subtraction happen and on thousands of random ones.
@Suite struct P256FieldTests {
    static let generic = MontgomeryField(modulus: P256Reduction.prime)
    static let fast = P256Field()

    /// Below p: 0, 1, 2, p − 1, p − 2, numbers with all limbs full or empty, 2²⁵⁵, and random ones.
    static func samples(count: Int, seed: UInt64) -> [UInt256] {
        let p = P256Reduction.prime
        let full = UInt64.max
        var values: [UInt256] = [
            .zero, .one, UInt256(l0: 2, l1: 0, l2: 0, l3: 0), UInt256.subtracting(p, .one).0,
            UInt256.subtracting(p, UInt256(l0: 2, l1: 0, l2: 0, l3: 0)).0, UInt256(l0: full, l1: full, l2: full, l3: 0),
            UInt256(l0: 0, l1: 0, l2: 0, l3: 1 << 63), UInt256(l0: full, l1: 0, l2: full, l3: 0xFFFF_FFFF_0000_0000),
            UInt256(l0: 0, l1: full, l2: 0, l3: 0xFFFF_FFFF_0000_0000), generic.one,
        ]
        var generator = SplitMix64(seed: seed)
        while values.count < count {
            let value = UInt256(l0: generator.next(), l1: generator.next(), l2: generator.next(), l3: generator.next())
            if value < p { values.append(value) }
        }
        return values
    }

    @Test func theOneIsTheGenericFieldsOne() {
        #expect(Self.fast.one == Self.generic.one)
    }

    @Test func productsAndSquaresAgreeWithTheGenericField() {
        let values = Self.samples(count: 400, seed: 256)
        for a in values {
            #expect(Self.fast.square(a) == Self.generic.square(a), "\(a)")
            #expect(UInt256.fullSquare(a) == UInt256.fullProduct(a, a), "\(a)")
            for b in values.prefix(40) {
                #expect(Self.fast.multiply(a, b) == Self.generic.multiply(a, b), "\(a) · \(b)")
            }
        }
    }

    @Test func sumsAndDifferencesAgreeWithTheGenericField() {
        let values = Self.samples(count: 120, seed: 257)
        for a in values {
            for b in values {
                #expect(Self.fast.add(a, b) == Self.generic.add(a, b), "\(a) + \(b)")
                #expect(Self.fast.subtract(a, b) == Self.generic.subtract(a, b), "\(a) − \(b)")
            }
        }
    }
}
