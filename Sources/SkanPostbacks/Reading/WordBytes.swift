/// Tests on the eight bytes of a word at once. Each returns the word's flagged bytes as their high bits.
/// The lowest flagged byte is exact; a flag above it may be a false alarm, because the subtraction's borrows
/// run upward. That is all a scan needs: whether a word holds a byte of interest, and where the first is.
enum WordBytes {
    private static let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080

    /// Bytes below `limit` (at most 0x80).
    @inline(__always)
    static func below(_ limit: UInt8, in word: UInt64) -> UInt64 {
        (word &- ones &* UInt64(limit)) & ~word & highs
    }

    /// Bytes equal to `byte`: the zero bytes of `word ^ byte…`.
    @inline(__always)
    static func equal(to byte: UInt8, in word: UInt64) -> UInt64 {
        below(1, in: word ^ (ones &* UInt64(byte)))
    }

    /// Bytes outside ASCII (exact, every one).
    @inline(__always)
    static func nonASCII(in word: UInt64) -> UInt64 {
        word & highs
    }
}
