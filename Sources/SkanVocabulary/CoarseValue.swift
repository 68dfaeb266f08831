/// The coarse conversion value. Apple gives the three values no meaning; the schema does.
public enum CoarseValue: String, Hashable, Sendable, CaseIterable, Comparable {
    case low, medium, high

    private var rank: Int {
        switch self {
        case .low: 0
        case .medium: 1
        case .high: 2
        }
    }

    /// `low` < `medium` < `high`.
    public static func < (lhs: CoarseValue, rhs: CoarseValue) -> Bool { lhs.rank < rhs.rank }
}
