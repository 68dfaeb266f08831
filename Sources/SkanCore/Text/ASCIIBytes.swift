/// Byte classes shared by the schema lexer and the postback decoder, which both read UTF-8 bytes.
extension UInt8 {
    /// `0`...`9`.
    @inlinable package var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
    /// `A`-`Z` or `a`-`z`.
    @inlinable package var isASCIILetter: Bool {
        (self | 0x20) >= UInt8(ascii: "a") && (self | 0x20) <= UInt8(ascii: "z")
    }

    /// The value of a hexadecimal digit (either case), or nil.
    @inlinable package var hexDigitValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
