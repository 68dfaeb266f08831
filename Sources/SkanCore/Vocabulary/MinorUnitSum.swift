/// Sums of amounts in whole minor units: each amount is rounded to the nearest minor unit (half away from zero)
/// and whole units are added, so a running total is always the double nearest a whole number of cents and
/// `0.1 + 0.2` is `0.3`.
/// Comparing such a total with a bound of the same grid is exact. The reference semantics, the generated code
/// and the runtime add the same way (the generated `Activity` writes this expression out).
public enum MinorUnitSum {
    /// `total + amount` in whole minor units (`unitsPerWhole` of them make one), or plain when it is nil.
    @inlinable public static func adding(_ amount: Double, to total: Double, unitsPerWhole: Double?) -> Double {
        guard let unitsPerWhole else { return total + amount }
        return ((total * unitsPerWhole).rounded() + (amount * unitsPerWhole).rounded()) / unitsPerWhole
    }

    /// Whether `amount` is a whole number of minor units (always, without a minor unit).
    public static func isWhole(_ amount: Double, unitsPerWhole: Double?) -> Bool {
        guard let unitsPerWhole else { return true }
        return (amount * unitsPerWhole).rounded() / unitsPerWhole == amount
    }

    /// The least whole amount at or above `bound` (the bound itself without a minor unit).
    public static func wholeAtOrAbove(_ bound: Double, unitsPerWhole: Double?) -> Double {
        guard let unitsPerWhole, !isWhole(bound, unitsPerWhole: unitsPerWhole) else { return bound }
        return (bound * unitsPerWhole).rounded(.up) / unitsPerWhole
    }

    /// The greatest whole amount at or below `bound` (the bound itself without a minor unit).
    public static func wholeAtOrBelow(_ bound: Double, unitsPerWhole: Double?) -> Double {
        guard let unitsPerWhole, !isWhole(bound, unitsPerWhole: unitsPerWhole) else { return bound }
        return (bound * unitsPerWhole).rounded(.down) / unitsPerWhole
    }

    /// The least whole amount above `bound`; nil without a minor unit (no next amount).
    public static func wholeAbove(_ bound: Double, unitsPerWhole: Double?) -> Double? {
        guard let unitsPerWhole else { return nil }
        let below = wholeAtOrBelow(bound, unitsPerWhole: unitsPerWhole)
        return ((below * unitsPerWhole).rounded() + 1) / unitsPerWhole
    }

    /// The greatest whole amount below `bound`; nil without a minor unit (no amount before).
    public static func wholeBelow(_ bound: Double, unitsPerWhole: Double?) -> Double? {
        guard let unitsPerWhole else { return nil }
        let above = wholeAtOrAbove(bound, unitsPerWhole: unitsPerWhole)
        return ((above * unitsPerWhole).rounded() - 1) / unitsPerWhole
    }
}
