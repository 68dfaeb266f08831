/// App code in a MainActor-by-default target that uses the generated type, including from a
/// nonisolated context: the generated type is usable from any isolation.
public struct Paywall {
    private var state = Subscription()

    /// A paywall for a user who has bought nothing yet.
    public init() {}

    /// Records a purchase; returns the fine value to report.
    public mutating func purchased(amount: Double) -> Int {
        state.revenue = Subscription.Revenue(amount: amount)
        return state.fineValue
    }

    /// The coarse value the current state gives in the first window.
    public var coarseValueInFirstWindow: String {
        "\(state.coarseValue(in: .first))"
    }
}

/// Decodes a fine value away from the main actor.
public nonisolated func describeSubscription(fineValue: Int) -> String {
    do {
        let state = try Subscription(fineValue: fineValue)
        return "revenue \(state.revenue), sessions \(state.sessions), trial \(state.startedTrial)"
    } catch {
        return "not a Subscription value: \(error)"
    }
}
