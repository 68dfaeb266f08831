import SkanCore
public import SkanPostbacks
public import SkanSchema

/// Installs by the day they first launched the app, as hard intervals: Apple's postbacks carry no time, but a
/// window-1 postback is sent 24 to 48 hours after its window ends, and the window ends 48 hours after first
/// launch, or earlier when the app locks it ("Receiving postbacks in multiple conversion windows"). From the day
/// `skanc serve` received a postback and the earliest the schema can lock window 1, each install's first launch
/// lies in a span of days; a day's installs are counted as the interval between those certainly on it and those
/// possibly on it, and, tighter, the installs up to each day. Beside the bounds, an allocation labelled as one:
/// each receipt day's installs spread over their span in proportion to its hours.
///
/// The bounds assume what Apple documents: the send delays, and a receiver that answered the first attempt (a
/// device retries a postback it got no 200 for, up to 9 days later). The first launch is when iOS starts the
/// windows; the App Store install can be up to 60 days before it.
public struct InstallDayCohorts: Sendable {
    /// One group's installs by day of first launch.
    public struct Cohort: Sendable {
        /// The key of the other groupings.
        public var by: [GroupValue]
        /// Every day some install can lie on, in order.
        public var days: [Day]
    }

    /// The installs of one day of first launch.
    public struct Day: Sendable {
        /// `2026-12-03`.
        public var day: String
        /// Installs that launched first on this day whatever the delays: those whose whole span is this day.
        public var low: Int
        /// Installs that may have: those whose span includes this day.
        public var high: Int
        /// Installs up to and including this day, at least (their span ends by it) and at most (it starts by it).
        public var throughLow: Int
        /// Installs up to and including this day, at most.
        public var throughHigh: Int
        /// An allocation, not a bound: each receipt day's installs spread over their span by its hours.
        public var allocated: Double
    }

    /// The cohorts, in the report's group order.
    public let cohorts: [Cohort]
    /// Hours before its receipt that an install's first launch can lie: from `earliest` to `latest`.
    public let hoursBeforeReceipt: (earliest: Double, latest: Double)
    /// Window-1 installs without a receipt day (a segment without its `.times`), in no cohort.
    public let undated: Int

    /// The cohorts of `report`, which groups by `day` (the receipt day) and the groupings of the cohorts.
    public init(_ report: PostbackReport, versions: LiveVersions) {
        let dayIndex = report.groupings.firstIndex(of: .day)!
        hoursBeforeReceipt = Self.hoursBeforeReceipt(versions)
        var byKey: [[GroupValue]: [Int: Int]] = [:]
        var order: [[GroupValue]] = []
        var undated = 0
        for group in report.groups {
            let installs = group.windows[0].installs
            guard installs > 0 else { continue }
            var key = group.by
            let day = key.remove(at: dayIndex).text.flatMap(Self.dayNumber)
            guard let day else {
                undated += installs
                continue
            }
            if byKey[key] == nil { order.append(key) }
            byKey[key, default: [:]][day, default: 0] += installs
        }
        self.undated = undated
        let span = ReceiptSpan(hoursBeforeReceipt: hoursBeforeReceipt)
        cohorts = order.map { key in Self.cohort(key, received: byKey[key]!, span: span) }
    }

    /// For installs received on days `received` (day number: installs), their first-launch days.
    static func cohort(_ key: [GroupValue], received: [Int: Int], span: ReceiptSpan) -> Cohort {
        let days = received.keys.sorted()
        let first = (days.first ?? 0) + span.first
        let last = (days.last ?? 0) + span.last
        var result: [Day] = []
        for day in first...last {
            var entry = Day(day: Self.text(day), low: 0, high: 0, throughLow: 0, throughHigh: 0, allocated: 0)
            for receipt in days {
                let installs = received[receipt]!
                let (from, to) = (receipt + span.first, receipt + span.last)
                if from == day && to == day { entry.low += installs }
                if from <= day && day <= to { entry.high += installs }
                if to <= day { entry.throughLow += installs }
                if from <= day { entry.throughHigh += installs }
                entry.allocated += Double(installs) * span.share(day - receipt)
            }
            result.append(entry)
        }
        return Cohort(by: key, days: result)
    }

    /// The days, relative to the day a window-1 postback was received (day 0), its install's first launch can lie
    /// on, and each day's share of those hours: the one rule the CLI's cohorts and the warehouse's view follow.
    public struct ReceiptSpan: Sendable {
        /// Hours before its receipt the first launch can lie: from `earliest` to `latest`.
        public let hoursBeforeReceipt: (earliest: Double, latest: Double)
        /// The first and last day, relative to the receipt day, the first launch can lie on.
        public let first: Int, last: Int

        /// The span for postbacks received `hours` after their first launch.
        public init(hoursBeforeReceipt hours: (earliest: Double, latest: Double)) {
            hoursBeforeReceipt = hours
            // Received in hours [0, 24) of day 0: first launch in (-earliest, 24 - latest), the days it touches.
            first = Int((-hours.earliest / 24).rounded(.down))
            last = max(first, Int(((24 - hours.latest) / 24).rounded(.up)) - 1)
        }

        /// The share of the span's hours on day `offset` (0 outside it): what an allocation gives that day.
        public func share(_ offset: Int) -> Double {
            let (from, to) = (-hoursBeforeReceipt.earliest, 24 - hoursBeforeReceipt.latest)
            let overlap = min(to, Double(offset + 1) * 24) - max(from, Double(offset) * 24)
            return overlap > 0 ? overlap / (to - from) : 0
        }
    }

    /// Hours before its receipt a window-1 postback's first launch can lie: the window's end (48 hours, or the
    /// earliest the schema's locks can end it, over every live version) plus the send delay (24 to 48 hours).
    public static func hoursBeforeReceipt(_ versions: LiveVersions) -> (earliest: Double, latest: Double) {
        let window = ConversionWindow.first.hours
        let end = Double(window.upperBound)
        let earliestEnd =
            versions.schemas.map { schema in
                schema.lockCondition(window: .first).map {
                    min(end, earliestHour($0, start: Double(window.lowerBound)))
                }
                    ?? end
            }.min() ?? end
        return (earliest: end + sendDelay.upperBound, latest: earliestEnd + sendDelay.lowerBound)
    }

    /// Apple's delay between a window's end and its postback's send, in hours, for window 1.
    static let sendDelay = 24.0...48.0

    /// The earliest hour at which `condition` can hold, for a window starting at `start`: a time condition bounds
    /// it (`hours >= 36`); anything else (a state, an event) can hold from the start.
    static func earliestHour(_ condition: Condition, start: Double) -> Double {
        switch condition {
        case .hours(.greaterOrEqual, let hours), .hours(.greater, let hours), .hours(.equal, let hours):
            max(start, hours)
        case .all(let parts): parts.map { earliestHour($0, start: start) }.max() ?? start
        case .any(let parts): parts.map { earliestHour($0, start: start) }.min() ?? start
        default: start
        }
    }

    /// The day number of `2026-12-03`, or nil.
    static func dayNumber(_ text: String) -> Int? {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, UTCTime.isDate(year: parts[0], month: parts[1], day: parts[2]) else { return nil }
        return UTCTime.dayNumber(year: parts[0], month: parts[1], day: parts[2])
    }

    static func text(_ day: Int) -> String { UTCTime.day(day * 86_400) }
}
