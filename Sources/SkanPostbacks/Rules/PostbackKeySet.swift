/// A set of `PostbackKey`s as the bits of one word: the fields a postback carries, requires or allows are
/// compared a whole set at a time.
package struct PostbackKeySet: Equatable, ExpressibleByArrayLiteral {
    private(set) var bits: UInt32 = 0

    init() {}

    package init(arrayLiteral keys: PostbackKey...) {
        for key in keys { insert(key) }
    }

    @inline(__always)
    package mutating func insert(_ key: PostbackKey) {
        bits |= 1 << UInt32(key.rawValue)
    }

    @inline(__always)
    func contains(_ key: PostbackKey) -> Bool {
        bits & (1 << UInt32(key.rawValue)) != 0
    }

    var isEmpty: Bool { bits == 0 }

    @inline(__always)
    func union(_ other: PostbackKeySet) -> PostbackKeySet {
        var set = self
        set.bits |= other.bits
        return set
    }

    @inline(__always)
    package func subtracting(_ other: PostbackKeySet) -> PostbackKeySet {
        var set = self
        set.bits &= ~other.bits
        return set
    }

    @inline(__always)
    func intersection(_ other: PostbackKeySet) -> PostbackKeySet {
        var set = self
        set.bits &= other.bits
        return set
    }

    /// The keys, in `PostbackKey` order.
    package var keys: [PostbackKey] { PostbackKey.allCases.filter(contains) }
}
