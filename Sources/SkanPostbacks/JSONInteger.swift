import Foundation
import SkanCompiler

/// Reading JSON numbers as integers, saying exactly what is wrong when they are not.
enum JSONInteger {
    case value(Int)
    /// A fraction such as 2.5: the field wants a whole number.
    case notWhole
    /// Beyond any range skanc checks against, such as 1e400 or 99999999999999999999.
    case tooLarge

    /// `bytes[start..<end]` is a number in JSON's grammar (the scanner checked it).
    @inline(__always)
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> JSONInteger {
        var index = start
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var value = 0
        var digits = 0
        while index < end, bytes[index].isDigit {
            value = value &* 10 &+ Int(bytes[index] &- UInt8(ascii: "0"))
            digits += 1
            index += 1
        }
        if index == end, digits <= 18 { return .value(negative ? -value : value) }
        // Fractions, exponents and long integers: the exact decimal value decides.
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else { return .tooLarge }
        if decimal.isNaN || abs(decimal) > 1_000_000_000_000_000 { return .tooLarge }
        var rounded = Decimal()
        var copy = decimal
        NSDecimalRound(&rounded, &copy, 0, .plain)
        guard rounded == decimal else { return .notWhole }
        return .value(NSDecimalNumber(decimal: decimal).intValue)
    }
}
