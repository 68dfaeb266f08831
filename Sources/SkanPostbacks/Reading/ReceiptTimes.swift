/// When each line of a postback file was received, from the file beside it that `skanc serve` writes: for
/// `NAME.jsonl`, `NAME.times`, one Unix time in seconds (UTC) a line, line for line. Apple's postbacks carry no
/// time of their own, and the segment's lines stay exactly the postbacks as received; this is where the time
/// is kept. The receiver writes the format through `line(_:)` and every reader reads it through `init(_:)`.
public struct ReceiptTimes: Sendable {
    /// Seconds since 1970 for each line, the first line's first; nil for a line whose time is not a number.
    public let seconds: [Int?]

    /// The latest time read: 9999-12-31T23:59:59Z, the last second whose year has four digits.
    public static let latest = 253_402_300_799

    /// The receipt times of `bytes` (a `.times` file); a line that is not 1 to 12 digits, or is after `latest`,
    /// has none.
    public init(_ bytes: [UInt8]) {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        if bytes.isEmpty || bytes.last == 0x0A { lines.removeLast() }
        seconds = lines.map { line in
            let digits = line.last == 0x0D ? line.dropLast() : line
            guard (1...12).contains(digits.count), digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            let value = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            return value <= Self.latest ? value : nil
        }
    }

    /// The receipt time of the 1-based line `number`, or nil.
    public subscript(line number: Int) -> Int? {
        number >= 1 && number <= seconds.count ? seconds[number - 1] : nil
    }

    /// The line the receiver writes for a postback received at `seconds`.
    public static func line(_ seconds: Int) -> String { "\(seconds)\n" }

    /// The path of the receipt times of the postback file at `path`: `.jsonl` replaced by `.times`; nil for a
    /// path that does not end in `.jsonl`.
    public static func path(besides path: String) -> String? {
        path.hasSuffix(".jsonl") ? String(path.dropLast(6)) + ".times" : nil
    }
}
