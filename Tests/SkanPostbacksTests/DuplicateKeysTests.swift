import SkanCompiler
import SkanCore
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

    /// The word-at-a-time reading against a plain one (Swift's own hex parsing of the digits), with every byte
    /// value in every position of a UUID, in random UUIDs of mixed case.
    @Test func everyByteInEveryPositionIsReadAsThePlainReading() {
        func plain(_ bytes: [UInt8]) -> (UInt64, UInt64)? {
            guard bytes.count == 36, [8, 13, 18, 23].allSatisfy({ bytes[$0] == UInt8(ascii: "-") }) else { return nil }
            let digits = bytes.enumerated().filter { ![8, 13, 18, 23].contains($0.offset) }.map(\.element)
            let hexDigits = Set(Array("0123456789abcdefABCDEF".utf8))
            guard digits.allSatisfy(hexDigits.contains) else { return nil }
            let text = String(decoding: digits, as: UTF8.self)
            return (UInt64(text.prefix(16), radix: 16)!, UInt64(text.suffix(16), radix: 16)!)
        }
        var generator = SplitMix64(seed: 0xC0DE_0123)
        let hex = Array("0123456789abcdefABCDEF".utf8)
        for _ in 0..<4 {
            var uuid = Array("00000000-0000-0000-0000-000000000000".utf8)
            for index in uuid.indices where uuid[index] != UInt8(ascii: "-") {
                uuid[index] = hex[Int(generator.next() % UInt64(hex.count))]
            }
            for position in uuid.indices {
                for byte in UInt8.min...UInt8.max {
                    var text = uuid
                    text[position] = byte
                    let read = text.withUnsafeBufferPointer { DuplicateKeys.uuid($0, 0, $0.count) }
                    let expected = plain(text)
                    #expect(read?.0 == expected?.0 && read?.1 == expected?.1 && (read == nil) == (expected == nil))
                }
            }
        }
    }
}
