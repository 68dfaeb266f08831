import SkanCore
import SkanSchema

extension RegionSimplification {
    /// The two as one, when they differ only in one event's sum range and the ranges meet: they overlap, touch
    /// with one side including the meeting amount, or, for amounts summed in whole minor units, the lower one
    /// ends one unit below where the upper one starts (`<= 9.99` and `>= 10` of USD cover every sum between).
    static func mergedValues(_ left: EventConjunction, _ right: EventConjunction, schema: Schema) -> EventConjunction? {
        guard left.minHours == right.minHours, left.maxHours == right.maxHours,
            left.minHoursStrict == right.minHoursStrict, left.maxHoursStrict == right.maxHoursStrict
        else { return nil }
        var differing: Int?
        for event in Set(left.bounds.map(\.event)).union(right.bounds.map(\.event)) {
            let one = left.bounds.first { $0.event == event } ?? EventBounds(event: event)
            let two = right.bounds.first { $0.event == event } ?? EventBounds(event: event)
            guard one.minCount == two.minCount, one.maxCount == two.maxCount else { return nil }
            if one != two {
                guard differing == nil else { return nil }
                differing = event
            }
        }
        guard let event = differing, schema.events.indices.contains(event) else { return nil }
        let one = left.bounds.first { $0.event == event } ?? EventBounds(event: event)
        let two = right.bounds.first { $0.event == event } ?? EventBounds(event: event)
        // Sums are never below 0, so no lower bound is a lower bound of 0.
        let (low, high) = (one.minValue ?? 0) <= (two.minValue ?? 0) ? (one, two) : (two, one)
        var union = low
        guard let lowTop = low.maxValue else { return left.replacing(event: event, with: union) }
        let highStart = high.minValue ?? 0
        let highStartStrict = high.minValue != nil && high.minValueStrict
        let unit = schema.events[event].unitsPerWhole
        let touches =
            lowTop > highStart || (lowTop == highStart && !(low.maxValueStrict && highStartStrict))
            || (!low.maxValueStrict && !highStartStrict
                && (MinorUnitSum.wholeAbove(lowTop, unitsPerWhole: unit).map { $0 >= highStart } ?? false))
        guard touches else { return nil }
        // The union's top is the looser of the two.
        if let highTop = high.maxValue,
            highTop > lowTop || (highTop == lowTop && low.maxValueStrict && !high.maxValueStrict)
        {
            (union.maxValue, union.maxValueStrict) = (highTop, high.maxValueStrict)
        } else if high.maxValue == nil {
            (union.maxValue, union.maxValueStrict) = (nil, false)
        }
        return left.replacing(event: event, with: union)
    }
}
