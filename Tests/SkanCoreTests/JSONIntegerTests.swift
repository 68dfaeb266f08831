import Testing

@testable import SkanCore

/// JSON numbers read as integers exactly: the postbacks engine and the Apple Ads reader both decide with it.
struct JSONIntegerTests {
    @Test func exactNumbers() {
        func read(_ text: String) -> JSONInteger {
            Array(text.utf8).withUnsafeBufferPointer { JSONInteger.read($0, 0, $0.count) }
        }
        #expect(read("20") == .value(20))
        #expect(read("-0") == .value(0))
        #expect(read("0e999999999999") == .value(0))
        #expect(read("2e1") == .value(20))
        #expect(read("2E+1") == .value(20))
        #expect(read("200e-1") == .value(20))
        #expect(read("0.05e2") == .value(5))
        #expect(read("-1.5e1") == .value(-15))
        #expect(read("1.25e1") == .notWhole)
        #expect(read("1e-400") == .notWhole)
        #expect(read("1e400") == .tooLarge)
        #expect(read("123456789012345678") == .value(123_456_789_012_345_678))
        #expect(read("1234567890123456789") == .tooLarge)
        #expect(read("1e18") == .tooLarge)
        #expect(read("9e17") == .value(900_000_000_000_000_000))
    }
}
