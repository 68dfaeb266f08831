/// Calendar arithmetic in UTC on Unix seconds and day numbers, with no time zone database: the receiver's
/// segment names, the receipt-time column and Apple Ads' dates all read and write UTC through it. The proleptic
/// Gregorian calendar, by Howard Hinnant's `days_from_civil` and `civil_from_days`.
public enum UTCTime {
    /// A calendar date and time of day.
    public struct Parts: Equatable, Sendable {
        public var year, month, day, hour, minute, second: Int
    }

    /// Whether `year`-`month`-`day` is a date of the calendar: year 1 to 9999 (four digits, no year 0), a month
    /// 1 to 12, a day the month has (February 29 in leap years only). What every date a user writes is held to.
    public static func isDate(year: Int, month: Int, day: Int) -> Bool {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1 else { return false }
        // The date of the day number is the same date only when that day exists.
        return date(dayNumber: dayNumber(year: year, month: month, day: day)) == (year, month, day)
    }

    /// Days from 1970-01-01 to `year`-`month`-`day`.
    public static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day number from 1970-01-01.
    public static func date(dayNumber days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The date and time of Unix seconds.
    public static func parts(_ seconds: Int) -> Parts {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let ofDay = seconds - days * 86_400
        let (year, month, day) = date(dayNumber: days)
        return Parts(
            year: year, month: month, day: day, hour: ofDay / 3600, minute: ofDay / 60 % 60, second: ofDay % 60)
    }

    /// `2026-12-03T13:30:00Z`: ISO 8601 and RFC 3339, which every SQL engine and spreadsheet reads.
    public static func iso8601(_ seconds: Int) -> String {
        let p = parts(seconds)
        return "\(pad(p.year, 4))-\(pad(p.month, 2))-\(pad(p.day, 2))T\(pad(p.hour, 2)):\(pad(p.minute, 2)):"
            + "\(pad(p.second, 2))Z"
    }

    /// `2026-12-03`.
    public static func day(_ seconds: Int) -> String {
        let p = parts(seconds)
        return "\(pad(p.year, 4))-\(pad(p.month, 2))-\(pad(p.day, 2))"
    }

    /// `20261203T133000Z`: the basic form, for file names.
    public static func stamp(_ seconds: Int) -> String {
        let p = parts(seconds)
        return "\(pad(p.year, 4))\(pad(p.month, 2))\(pad(p.day, 2))T"
            + "\(pad(p.hour, 2))\(pad(p.minute, 2))\(pad(p.second, 2))Z"
    }

    private static func pad(_ number: Int, _ width: Int) -> String {
        let text = String(number)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
