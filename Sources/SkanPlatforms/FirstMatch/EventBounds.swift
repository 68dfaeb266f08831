/// What an ad platform's event condition says of one event: how many times it was logged and the sum of its
/// amounts, each between inclusive bounds (GA4's `minEventCount`…`maxEventValue`, Google Ads' ranges). Counts
/// and sums are since first launch.
public struct EventBounds: Hashable, Sendable {
    /// The event, an index in `Schema.events`.
    public var event: Int
    /// At least this many times; nil: no lower bound.
    public var minCount: Int?
    /// At most this many times; nil: no upper bound.
    public var maxCount: Int?
    /// A sum of at least this; nil: no lower bound.
    public var minValue: Double?
    /// A sum of at most this; nil: no upper bound.
    public var maxValue: Double?
    /// Whether the sum must be over `minValue` (`E.sum > X`), not at least it.
    public var minValueStrict = false
    /// Whether the sum must be under `maxValue` (`not (E.sum >= X)`), not at most it.
    public var maxValueStrict = false

    /// Whether a value bound is strict, which platforms with inclusive bounds cannot say.
    public var hasStrictValue: Bool { (minValue != nil && minValueStrict) || (maxValue != nil && maxValueStrict) }

    /// Bounds on `event`; none by default.
    public init(
        event: Int, minCount: Int? = nil, maxCount: Int? = nil, minValue: Double? = nil, maxValue: Double? = nil
    ) {
        self.event = event
        self.minCount = minCount
        self.maxCount = maxCount
        self.minValue = minValue
        self.maxValue = maxValue
    }

    /// Both bounds at once, or nil when no count and sum meets both.
    func intersected(with other: EventBounds) -> EventBounds? {
        var result = self
        result.minCount = Self.tighter(minCount, other.minCount, by: max)
        result.maxCount = Self.tighter(maxCount, other.maxCount, by: min)
        (result.minValue, result.minValueStrict) = Self.tighterLower(
            (minValue, minValueStrict), (other.minValue, other.minValueStrict))
        (result.maxValue, result.maxValueStrict) = Self.tighterUpper(
            (maxValue, maxValueStrict), (other.maxValue, other.maxValueStrict))
        return result.isSatisfiable ? result : nil
    }

    /// Whether some count and sum meet the bounds: counts from 0, sums from 0 (amounts are not negative), and
    /// an event never logged has sum 0.
    var isSatisfiable: Bool {
        if let maxCount, maxCount < max(minCount ?? 0, 0) { return false }
        if let maxValue, maxValue < max(minValue ?? 0, 0) { return false }
        if let maxValue, maxValue == max(minValue ?? 0, 0), maxValueStrict || minValueStrict { return false }
        if maxCount == 0, let minValue, minValue > 0 || minValueStrict { return false }
        return true
    }

    /// Whether the bounds say nothing (every activity meets them).
    var isVacuous: Bool {
        (minCount ?? 0) <= 0 && maxCount == nil && (minValue ?? 0) <= 0 && maxValue == nil
    }

    /// Whether a count and sum meet the bounds.
    public func holds(count: Double, sum: Double) -> Bool {
        if let minCount, count < Double(minCount) { return false }
        if let maxCount, count > Double(maxCount) { return false }
        if let minValue, minValueStrict ? sum <= minValue : sum < minValue { return false }
        if let maxValue, maxValueStrict ? sum >= maxValue : sum > maxValue { return false }
        return true
    }

    /// Of two lower bounds, the tighter: the larger, or at the same value the strict one.
    static func tighterLower(_ left: (Double?, Bool), _ right: (Double?, Bool)) -> (Double?, Bool) {
        guard let low = left.0 else { return right }
        guard let high = right.0 else { return left }
        if low == high { return (low, left.1 || right.1) }
        return low > high ? left : right
    }

    /// Of two upper bounds, the tighter: the smaller, or at the same value the strict one.
    static func tighterUpper(_ left: (Double?, Bool), _ right: (Double?, Bool)) -> (Double?, Bool) {
        guard let low = left.0 else { return right }
        guard let high = right.0 else { return left }
        if low == high { return (low, left.1 || right.1) }
        return low < high ? left : right
    }

    private static func tighter<T>(_ left: T?, _ right: T?, by pick: (T, T) -> T) -> T? {
        guard let left else { return right }
        guard let right else { return left }
        return pick(left, right)
    }
}

/// Bounds on several events that must all hold: one `EventBounds` per event named, in order of first mention,
/// and, where the platform has a clock (Google Ads' time post install), inclusive bounds on the hours since
/// first launch. Empty, it always holds.
public struct EventConjunction: Hashable, Sendable {
    /// One per event, in order of first mention.
    public private(set) var bounds: [EventBounds]
    /// At least this many hours since first launch; nil: no bound.
    public private(set) var minHours: Double?
    /// At most this many hours since first launch; nil: no bound.
    public private(set) var maxHours: Double?
    /// Whether the hours must be over `minHours`, not at least it.
    public private(set) var minHoursStrict = false
    /// Whether the hours must be under `maxHours`, not at most it.
    public private(set) var maxHoursStrict = false

    /// Whether a value or hour bound is strict, which platforms with inclusive bounds cannot say.
    public var hasStrictBound: Bool {
        bounds.contains(where: \.hasStrictValue) || (minHours != nil && minHoursStrict)
            || (maxHours != nil && maxHoursStrict)
    }

    /// Always holds.
    public static let always = EventConjunction(bounds: [])

    /// Hours since first launch between `minHours` and `maxHours` (inclusive unless strict); nil when none are.
    init?(minHours: Double?, maxHours: Double?, minStrict: Bool = false, maxStrict: Bool = false) {
        self.init(bounds: [])
        self.minHours = minHours.flatMap { $0 > 0 || minStrict ? $0 : nil }
        self.minHoursStrict = minStrict
        self.maxHours = maxHours
        self.maxHoursStrict = maxStrict
        guard hoursSatisfiable else { return nil }
    }

    private var hoursSatisfiable: Bool {
        guard let maxHours else { return true }
        let low = max(minHours ?? 0, 0)
        return maxHours > low || (maxHours == low && !maxHoursStrict && !(minHours != nil && minHoursStrict))
    }

    /// Bounds on the events of `bounds`, merged per event; nil when they cannot all hold.
    init?(_ bounds: [EventBounds]) {
        var result = EventConjunction(bounds: [])
        for bound in bounds {
            guard let merged = result.and(EventConjunction(bounds: [bound])) else { return nil }
            result = merged
        }
        self = result
    }

    private init(bounds: [EventBounds]) {
        self.bounds = bounds.filter { !$0.isVacuous }
    }

    /// Both conjunctions, merged per event; nil when they cannot both hold.
    func and(_ other: EventConjunction) -> EventConjunction? {
        let low = EventBounds.tighterLower((minHours, minHoursStrict), (other.minHours, other.minHoursStrict))
        let high = EventBounds.tighterUpper((maxHours, maxHoursStrict), (other.maxHours, other.maxHoursStrict))
        var merged = bounds
        for bound in other.bounds {
            if let index = merged.firstIndex(where: { $0.event == bound.event }) {
                guard let both = merged[index].intersected(with: bound) else { return nil }
                merged[index] = both
            } else {
                guard bound.isSatisfiable else { return nil }
                merged.append(bound)
            }
        }
        var result = EventConjunction(bounds: merged)
        (result.minHours, result.minHoursStrict) = low
        (result.maxHours, result.maxHoursStrict) = high
        return result.hoursSatisfiable ? result : nil
    }

    /// The same bounds, each inclusive: what a platform with inclusive bounds writes for a strict one.
    public var inclusive: EventConjunction {
        var result = self
        result.bounds = bounds.map { bound in
            var inclusive = bound
            (inclusive.minValueStrict, inclusive.maxValueStrict) = (false, false)
            return inclusive
        }
        (result.minHoursStrict, result.maxHoursStrict) = (false, false)
        return result
    }

    /// Whether it holds for events counted `count(e)` times with sums `sum(e)`, at `hours` since first launch.
    public func holds(count: (Int) -> Double, sum: (Int) -> Double, hours: Double = 0) -> Bool {
        if let minHours, minHoursStrict ? hours <= minHours : hours < minHours { return false }
        if let maxHours, maxHoursStrict ? hours >= maxHours : hours > maxHours { return false }
        return bounds.allSatisfy { $0.holds(count: count($0.event), sum: sum($0.event)) }
    }
}
