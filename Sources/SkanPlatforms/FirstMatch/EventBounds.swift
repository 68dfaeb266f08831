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
        result.minValue = Self.tighter(minValue, other.minValue, by: max)
        result.maxValue = Self.tighter(maxValue, other.maxValue, by: min)
        return result.isSatisfiable ? result : nil
    }

    /// Whether some count and sum meet the bounds: counts from 0, sums from 0 (amounts are not negative), and
    /// an event never logged has sum 0.
    var isSatisfiable: Bool {
        if let maxCount, maxCount < max(minCount ?? 0, 0) { return false }
        if let maxValue, maxValue < max(minValue ?? 0, 0) { return false }
        if maxCount == 0, let minValue, minValue > 0 { return false }
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
        if let minValue, sum < minValue { return false }
        if let maxValue, sum > maxValue { return false }
        return true
    }

    private static func tighter<T>(_ left: T?, _ right: T?, by pick: (T, T) -> T) -> T? {
        guard let left else { return right }
        guard let right else { return left }
        return pick(left, right)
    }
}

/// Bounds on several events that must all hold: one `EventBounds` per event named, in order of first mention.
/// Empty, it always holds.
public struct EventConjunction: Hashable, Sendable {
    /// One per event, in order of first mention.
    public private(set) var bounds: [EventBounds]

    /// Always holds.
    public static let always = EventConjunction(bounds: [])

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
        return EventConjunction(bounds: merged)
    }

    /// Whether it holds for events counted `count(e)` times with sums `sum(e)`.
    public func holds(count: (Int) -> Double, sum: (Int) -> Double) -> Bool {
        bounds.allSatisfy { $0.holds(count: count($0.event), sum: sum($0.event)) }
    }
}
