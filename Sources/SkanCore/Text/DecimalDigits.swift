extension [UInt8] {
    /// Appends `value` in decimal, as `String(value)` writes it (a `-` before a negative number), without
    /// making a string: reports write hundreds of thousands of counts.
    package mutating func appendDecimal(_ value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        // The magnitude as unsigned, so that Int.min has one too.
        var rest = value.magnitude
        var digits = 1
        var scan = rest
        while scan >= 10 {
            scan /= 10
            digits += 1
        }
        append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
        var index = endIndex
        repeat {
            index -= 1
            self[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        } while rest > 0
    }
}
