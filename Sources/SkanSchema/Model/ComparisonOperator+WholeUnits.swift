import SkanCore

extension ComparisonOperator {
    /// An inclusive range of sums; a nil end is unbounded.
    public typealias InclusiveRange = (min: Double?, max: Double?)

    /// `SUM op number` over sums in whole minor units (`unitsPerWhole` of them make one), as the inclusive ranges
    /// of whole amounts it holds in: `< 10` of USD is `...9.99`, `> 9.995` is `10...`; `== 9.995` holds in none,
    /// `!= 9.995` in every amount, `!= 10` below and above. The exports write these ranges; the lint
    /// `amount-between-units` says them.
    public func wholeUnitRanges(_ number: Double, unitsPerWhole unit: Double) -> [InclusiveRange] {
        let onGrid = MinorUnitSum.isWhole(number, unitsPerWhole: unit)
        let below = MinorUnitSum.wholeBelow(number, unitsPerWhole: unit)
        let above = MinorUnitSum.wholeAbove(number, unitsPerWhole: unit)
        switch self {
        case .greaterOrEqual: return [(MinorUnitSum.wholeAtOrAbove(number, unitsPerWhole: unit), nil)]
        case .greater: return [(above, nil)]
        case .lessOrEqual: return [(nil, MinorUnitSum.wholeAtOrBelow(number, unitsPerWhole: unit))]
        case .less: return [(nil, below)]
        case .equal: return onGrid ? [(number, number)] : []
        case .notEqual: return onGrid ? [(nil, below), (above, nil)] : [(nil, nil)]
        }
    }
}
