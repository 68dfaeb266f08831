import SkanSchema

/// A union of conjunctions made as small as it can be without changing what it covers: conjunctions that
/// cannot hold or that another covers are dropped, and two that differ only in one event's count range or sum
/// range, where the ranges meet, become one (sums in whole minor units meet across one unit: `<= 9.99` and
/// `>= 10` of USD). Google Ads describes each value with one conjunction; a union that stays
/// several cannot be written there.
enum RegionSimplification {
    /// Unions larger than this are left as they are (quadratic passes over them would make a run slow); they
    /// cannot be one mapping anyway unless most of them repeat.
    static let maximumTerms = 256

    /// `terms` made smaller, each comparison of two spent from `work` (weighed by their events); once it is spent
    /// the union is returned as far as it got, which covers the same activities.
    static func simplified(_ terms: [EventConjunction], schema: Schema, work: ExportWork) -> [EventConjunction] {
        guard terms.count <= maximumTerms else { return terms }
        func affordable(_ one: EventConjunction, _ two: EventConjunction) -> Bool {
            work.spend(1 + (one.bounds.count + two.bounds.count) / 8)
        }
        var result: [EventConjunction] = []
        for term in terms where !result.contains(term) { result.append(term) }
        var changed = true
        while changed {
            changed = false
            // Drop a term another covers.
            if let index = result.indices.first(where: { index in
                result.indices.contains {
                    $0 != index && affordable(result[$0], result[index]) && covers(result[$0], result[index])
                }
            }) {
                result.remove(at: index)
                changed = true
                continue
            }
            // Merge two that differ only in one event's count range, where the ranges meet.
            outer: for first in result.indices {
                for second in result.indices where second > first {
                    guard affordable(result[first], result[second]) else { return result }
                    if let merged = mergedCounts(result[first], result[second])
                        ?? mergedValues(result[first], result[second], schema: schema)
                        ?? mergedHours(result[first], result[second])
                    {
                        result[first] = merged
                        result.remove(at: second)
                        changed = true
                        break outer
                    }
                }
            }
        }
        return result
    }

    /// Whether every activity `inner` admits, `outer` admits too.
    static func covers(_ outer: EventConjunction, _ inner: EventConjunction) -> Bool {
        guard lowerCovers(outer.minHours, outer.minHoursStrict, inner.minHours, inner.minHoursStrict),
            upperCovers(outer.maxHours, outer.maxHoursStrict, inner.maxHours, inner.maxHoursStrict)
        else { return false }
        return outer.bounds.allSatisfy { bound in
            let other = inner.bounds.first { $0.event == bound.event } ?? EventBounds(event: bound.event)
            return (bound.minCount ?? 0) <= (other.minCount ?? 0)
                && (bound.maxCount.map { limit in other.maxCount.map { $0 <= limit } ?? false } ?? true)
                && lowerCovers(bound.minValue, bound.minValueStrict, other.minValue, other.minValueStrict)
                && upperCovers(bound.maxValue, bound.maxValueStrict, other.maxValue, other.maxValueStrict)
        }
    }

    private static func lowerCovers(_ outer: Double?, _ outerStrict: Bool, _ inner: Double?, _ innerStrict: Bool)
        -> Bool
    {
        guard let outer else { return true }
        guard let inner else { return outer < 0 || (outer == 0 && !outerStrict) }
        return outer < inner || (outer == inner && (!outerStrict || innerStrict))
    }

    private static func upperCovers(_ outer: Double?, _ outerStrict: Bool, _ inner: Double?, _ innerStrict: Bool)
        -> Bool
    {
        guard let outer else { return true }
        guard let inner else { return false }
        return outer > inner || (outer == inner && (!outerStrict || innerStrict))
    }

    /// The two as one, when they have the same event bounds and their hour ranges meet (`[0, 24)` and `[24, 48)`).
    static func mergedHours(_ left: EventConjunction, _ right: EventConjunction) -> EventConjunction? {
        guard left.bounds == right.bounds else { return nil }
        let leftLow = left.minHours ?? 0
        let rightLow = right.minHours ?? 0
        let (low, high) = leftLow <= rightLow ? (left, right) : (right, left)
        // `low` must reach `high`'s start: past it, or up to it with one side including the meeting hour.
        guard let lowTop = low.maxHours else { return low }
        let highStart = high.minHours ?? 0
        let meets =
            lowTop > highStart
            || (lowTop == highStart && !(low.maxHoursStrict && (high.minHours != nil && high.minHoursStrict)))
        guard meets else { return nil }
        let top = EventBounds.tighterUpper((low.maxHours, low.maxHoursStrict), (high.maxHours, high.maxHoursStrict))
        // The union's top is the looser of the two.
        let looser: (Double?, Bool) =
            (high.maxHours == nil || low.maxHours == nil)
            ? (nil, false)
            : (top == (low.maxHours, low.maxHoursStrict)
                ? (high.maxHours, high.maxHoursStrict) : (low.maxHours, low.maxHoursStrict))
        guard
            let hours = EventConjunction(
                minHours: low.minHours, maxHours: looser.0, minStrict: low.minHoursStrict, maxStrict: looser.1)
        else { return nil }
        return EventConjunction(low.bounds)?.and(hours)
    }

    /// The two as one, when they differ only in one event's count range and the ranges meet.
    static func mergedCounts(_ left: EventConjunction, _ right: EventConjunction) -> EventConjunction? {
        guard left.minHours == right.minHours, left.maxHours == right.maxHours,
            left.minHoursStrict == right.minHoursStrict, left.maxHoursStrict == right.maxHoursStrict
        else { return nil }
        let events = Set(left.bounds.map(\.event)).union(right.bounds.map(\.event))
        var differing: Int?
        for event in events {
            let one = left.bounds.first { $0.event == event } ?? EventBounds(event: event)
            let two = right.bounds.first { $0.event == event } ?? EventBounds(event: event)
            var sameValues = one
            sameValues.minCount = two.minCount
            sameValues.maxCount = two.maxCount
            guard sameValues == two else { return nil }
            if one.minCount != two.minCount || one.maxCount != two.maxCount {
                guard differing == nil else { return nil }
                differing = event
            }
        }
        guard let event = differing else { return left }
        let one = left.bounds.first { $0.event == event } ?? EventBounds(event: event)
        let two = right.bounds.first { $0.event == event } ?? EventBounds(event: event)
        let (low, high) = (one.minCount ?? 0) <= (two.minCount ?? 0) ? (one, two) : (two, one)
        guard let lowTop = low.maxCount, lowTop + 1 >= (high.minCount ?? 0) else { return nil }
        var union = low
        union.maxCount = high.maxCount.map { Swift.max($0, lowTop) }
        return left.replacing(event: event, with: union)
    }
}

extension EventConjunction {
    /// The same conjunction with `event`'s bounds replaced.
    func replacing(event: Int, with bounds: EventBounds) -> EventConjunction? {
        var others = self.bounds.filter { $0.event != event }
        others.append(bounds)
        guard var result = EventConjunction(others.sorted { $0.event < $1.event }) else { return nil }
        result = result.withHours(of: self)
        return result
    }

    /// This conjunction's event bounds with `other`'s hour bounds.
    func withHours(of other: EventConjunction) -> EventConjunction {
        guard
            let hours = EventConjunction(
                minHours: other.minHours, maxHours: other.maxHours, minStrict: other.minHoursStrict,
                maxStrict: other.maxHoursStrict)
        else { return self }
        return self.and(hours) ?? self
    }
}
