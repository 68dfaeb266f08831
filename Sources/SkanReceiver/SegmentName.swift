import SkanCore

/// A segment's file name, `<instance>-<opened UTC>-<n>.jsonl` (`eu1-20261203T133000Z-2.jsonl`): whose it is,
/// and the second its first batch was received in (the name is given when that batch opens the segment).
struct SegmentName: Equatable {
    var instance: String
    var opened: Int
    var number: Int

    init(instance: String, opened: Int, number: Int) {
        self.instance = instance
        self.opened = opened
        self.number = number
    }

    /// The parts of `name`, or nil when it is not a segment's name.
    init?(_ name: String) {
        guard name.hasSuffix(".jsonl") else { return nil }
        let parts = name.dropLast(6).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 3, let number = Int(parts[parts.count - 1]), number > 0,
            let opened = Self.seconds(parts[parts.count - 2])
        else { return nil }
        let instance = parts.dropLast(2).joined(separator: "-")
        guard !instance.isEmpty else { return nil }
        self.instance = instance
        self.opened = opened
        self.number = number
    }

    /// Unix seconds of a `YYYYMMDDTHHMMSSZ` stamp, or nil.
    static func seconds(_ stamp: Substring) -> Int? {
        let bytes = Array(stamp.utf8)
        guard bytes.count == 16, bytes[8] == UInt8(ascii: "T"), bytes[15] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            guard bytes[range].allSatisfy({ $0.isDigit }) else { return nil }
            return bytes[range].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8),
            let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        let days = UTCTime.dayNumber(year: year, month: month, day: day)
        return days * 86_400 + hour * 3_600 + minute * 60 + second
    }
}
