import SkanCore

/// ISO 8601 dates as Apple Ads writes them (`2020-04-08T17:17Z`, `2016-09-29T11:25:08Z`,
/// `2016-09-29T11:25:08.123+02:00`), rewritten as one form in UTC with seconds: `2016-09-29T09:25:08Z`,
/// years 1 to 9999.
enum ISO8601Text {
    /// The date in UTC as `yyyy-MM-ddTHH:mm:ssZ` (fractions dropped), or nil when `text` is not such a date.
    static func normalized(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<(index + digits)] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += digits
            return value
        }
        func expect(_ character: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == character else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect(45), let month = number(2), expect(45), let day = number(2),
            expect(84) || expect(116), let hour = number(2), expect(58), let minute = number(2)
        else { return nil }
        var second = 0
        if expect(58) {
            guard let value = number(2) else { return nil }
            second = value
            if expect(46) {
                let start = index
                while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { index += 1 }
                guard index > start else { return nil }
            }
        }
        var offset = 0
        if expect(90) || expect(122) {
            offset = 0
        } else if index < bytes.count, bytes[index] == 43 || bytes[index] == 45 {
            let sign = bytes[index] == 45 ? -1 : 1
            index += 1
            guard let hours = number(2) else { return nil }
            _ = expect(58)
            guard let minutes = number(2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 60 + minutes)
        } else {
            return nil
        }
        guard index == bytes.count, (1...12).contains(month), day >= 1, day <= daysIn(month, year), hour < 24,
            minute < 60, second < 60
        else { return nil }
        // Shift to UTC through days since the epoch.
        let total = UTCTime.dayNumber(year: year, month: month, day: day) * 1440 + hour * 60 + minute - offset
        let dayNumber = total >= 0 ? total / 1440 : (total - 1439) / 1440
        let minutes = total - dayNumber * 1440
        let (y, m, d) = UTCTime.date(dayNumber: dayNumber)
        // Four-digit years only, in UTC too: a date the shift moves before year 1 or past 9999 has no such text.
        guard (1...9999).contains(y) else { return nil }
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(repeating: "0", count: max(0, 4 - String(y).count)) + String(y)
        return "\(yearText)-\(two(m))-\(two(d))T\(two(minutes / 60)):\(two(minutes % 60)):\(two(second))Z"
    }

    private static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
