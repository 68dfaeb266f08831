import SkanCompiler
import SkanTestSupport
import Testing

@testable import SkanPostbacks

@Suite struct DuplicateKeysTests {
    /// Any requested size works (the table rounds it up to a power of two) and keeps every key across
    /// growth: each key is new the first time and seen the second.
    @Test(arguments: [0, 1, 15, 17, 100, 327_680])
    func keysAreKeptAtAnySize(capacity: Int) {
        var keys = DuplicateKeys(capacity: capacity)
        var generator = SplitMix64(seed: UInt64(capacity))
        let uuids = (0..<3000).map { _ in
            (UInt64.random(in: 1...UInt64.max, using: &generator), UInt64.random(in: 0...UInt64.max, using: &generator))
        }
        let first = uuids.map { keys.insert(high: $0.0, low: $0.1) }
        let second = uuids.map { keys.insert(high: $0.0, low: $0.1) }
        #expect(!first.contains(true) && !second.contains(false))
        let zero = (keys.insert(high: 0, low: 0), keys.insert(high: 0, low: 0))
        let text = (keys.insert(text: "not a uuid"), keys.insert(text: "not a uuid"))
        #expect(zero == (false, true) && text == (false, true))
    }

    @Test func canonicalUUIDsAreRead() {
        let text = Array("0123abcd-EF01-2345-6789-abcdefABCDEF".utf8)
        let value = text.withUnsafeBufferPointer { DuplicateKeys.uuid($0, 0, $0.count) }
        #expect(value?.0 == 0x0123_ABCD_EF01_2345 && value?.1 == 0x6789_ABCD_EFAB_CDEF)
        for bad in [
            "0123abcd-EF01-2345-6789-abcdefABCDEG", "0123abcd0EF01-2345-6789-abcdefABCDEF",
            "0123abcd-EF01-2345-6789-abcdefABCDE",
        ] {
            let bytes = Array(bad.utf8)
            #expect(bytes.withUnsafeBufferPointer { DuplicateKeys.uuid($0, 0, $0.count) } == nil, "\(bad)")
        }
    }
}
