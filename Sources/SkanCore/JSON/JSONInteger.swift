/// Reading JSON numbers as integers, exactly, saying what is wrong when they are not. A number written
/// with a fraction or an exponent counts when its exact value is a whole number (`20.0`, `2e1`); otherwise
/// (`2.5`, `1e-400`, `1.000…0001`) it is not whole, however close. No floating point is involved. The
/// postbacks engine reads every number with it (the common case inlined into its loop), and so does the
/// Apple Ads attribution reader.
package enum JSONInteger: Equatable, Sendable {
    case value(Int)
    /// A fraction such as 2.5: the field wants a whole number.
    case notWhole
    /// A whole number beyond any range skanc checks against, such as 1e400 or 99999999999999999999.
    case tooLarge

    /// Whole numbers of more digits than this are `tooLarge` (every range skanc checks is far smaller).
    package static let maximumDigits = 18

    /// `bytes[start..<end]` is a number in JSON's grammar (the scanner checked it).
    @inlinable @inline(__always)
    package static func read(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> JSONInteger {
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
        if index == end, digits <= maximumDigits { return .value(negative ? -value : value) }
        return readExactly(bytes, start, end)
    }

    /// Fractions, exponents and long integers: the number is `significand × 10^exponent`, with the
    /// significand's digits kept as they are.
    @usableFromInline
    package static func readExactly(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> JSONInteger {
        var index = start
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        // The significand's digits, leading zeros dropped, and how many of them follow the point.
        var significand: [UInt8] = []
        var fractionDigits = 0
        var inFraction = false
        while index < end, bytes[index] != UInt8(ascii: "e"), bytes[index] != UInt8(ascii: "E") {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: ".") {
                inFraction = true
                continue
            }
            if inFraction { fractionDigits += 1 }
            if significand.isEmpty, byte == UInt8(ascii: "0") { continue }
            significand.append(byte &- UInt8(ascii: "0"))
        }
        // The exponent, saturated: beyond a billion only its sign matters.
        var exponent = 0
        if index < end {
            index += 1
            var negativeExponent = false
            if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                negativeExponent = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            while index < end {
                exponent = min(exponent * 10 + Int(bytes[index] &- UInt8(ascii: "0")), 1_000_000_000)
                index += 1
            }
            if negativeExponent { exponent = -exponent }
        }
        // Zero is whole whatever its exponent.
        while significand.last == 0 {
            significand.removeLast()
            fractionDigits -= 1
        }
        guard !significand.isEmpty else { return .value(0) }
        // value = significand × 10^scale, the significand without trailing zeros.
        let scale = exponent - fractionDigits
        guard scale >= 0 else { return .notWhole }
        guard significand.count + scale <= maximumDigits else { return .tooLarge }
        var value = 0
        for digit in significand { value = value * 10 + Int(digit) }
        for _ in 0..<scale { value *= 10 }
        return .value(negative ? -value : value)
    }
}
