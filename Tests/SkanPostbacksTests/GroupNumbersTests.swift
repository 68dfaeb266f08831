import SkanCore
import SkanTestSupport
import Testing

@testable import SkanPostbacks

/// `GroupNumbers`, the byte-keyed table a tally numbers its groups with, against a dictionary: keys of
/// every length (the empty key, prefixes of each other, bytes of every value), many more than its first
/// room, numbered in the order first seen, and the same again after it is emptied.
@Suite struct GroupNumbersTests {
    @Test func numbersKeysAsADictionaryDoes() {
        var generator = SplitMix64(seed: 0x6E0B)
        var table = GroupNumbers()
        for _ in 0..<2 {
            var expected: [[UInt8]: Int] = [:]
            var order: [[UInt8]] = []
            for _ in 0..<5000 {
                let length = Int(generator.next() % 12)
                // Few distinct bytes, so keys repeat and share prefixes.
                let key = (0..<length).map { _ in
                    UInt8(truncatingIfNeeded: generator.next() % 3 == 0 ? 0 : generator.next() % 4)
                }
                let (number, isNew) = key.withUnsafeBufferPointer { table.number(of: $0) }
                if let known = expected[key] {
                    #expect(number == known && !isNew)
                } else {
                    #expect(number == order.count && isNew)
                    expected[key] = number
                    order.append(key)
                }
            }
            #expect(table.count == order.count)
            #expect(order.count > 64, "more keys than the first room")
            var seen: [[UInt8]] = []
            table.forEachKey { seen.append(Array($0)) }
            #expect(seen == order)
            table.removeAll()
            #expect(table.count == 0)
        }
    }
}
