import SkanCore

extension PostbackReport {
    /// The fine-value installs of a group as a sample of one amount field: per stratum (the window-1 coarse value
    /// of their state) and in all, the count and the sums of what each install stands for (`WithinRange.value`, or
    /// the range's mid-point), its square and its spread inside the range, and of the ranges' ends (an open-ended
    /// range at its lower bound). Doubles: an estimate is a model, not a total.
    struct Sample {
        struct Moments {
            var count = 0
            var low = 0.0, value = 0.0, valueSquares = 0.0, within = 0.0, high = 0.0

            mutating func add(_ range: ReportColumns.RevenueRange, _ stands: Stands, count n: Int) {
                count += n
                low += Double(n) * range.low.doubleValue
                value += Double(n) * stands.value
                valueSquares += Double(n) * stands.value * stands.value
                within += Double(n) * stands.variance
                high += Double(n) * (range.high ?? range.low).doubleValue
            }

            /// The variance of one install's amount: of the values between installs, and inside their ranges.
            var variance: Double {
                guard count > 1 else { return 0 }
                let mean = value / Double(count)
                let between = max(0, (valueSquares - Double(count) * mean * mean) / Double(count - 1))
                return between + within / Double(count)
            }
        }

        /// What one install of a range stands for: a value and its variance around it.
        struct Stands {
            var value: Double
            var variance: Double
        }

        let method: Estimate.Method
        /// The prior's amounts: an install without a fine value spreads at least as they do where its coarse value
        /// allows, however few of the group's fine-value installs show a rare amount (a group whose sample holds no
        /// large payer still has some among the installs without a fine value).
        let prior: RevenuePrior.Distribution?
        var strata: [Moments]
        var all = Moments()

        init(strata: Int, prior: RevenuePrior.Distribution?) {
            self.strata = Array(repeating: Moments(), count: strata)
            self.prior = prior
            method = prior == nil ? .midPoint : .prior
        }

        mutating func add(_ range: ReportColumns.RevenueRange, _ stands: Stands, count: Int, stratum: Int?) {
            all.add(range, stands, count: count)
            if let stratum { strata[stratum].add(range, stands, count: count) }
        }

        /// The estimate for `shares` (coarse-only installs) and `withoutValue` installs; nil when there is nothing
        /// to estimate or fewer than two fine-value installs to estimate from. A coarse value whose stratum has
        /// fewer than two installs is estimated from all of them.
        func estimate(_ shares: [CoarseShare], withoutValue: Int, scale: Int) -> Estimate? {
            let parts =
                shares.map { share -> (Int, Moments) in
                    let stratum = strata[CoarseValue.allCases.firstIndex(of: share.coarse)!]
                    return (share.postbacks, stratum.count >= 2 ? stratum : all)
                } + [(withoutValue, all)]
            let installs = parts.reduce(0) { $0 + $1.0 }
            guard installs > 0, all.count >= 2 else { return nil }
            var (low, mid, high, variance) = (0.0, 0.0, 0.0, 0.0)
            var hardLow = 0.0
            for (share, (count, moments)) in zip(shares + [nil], parts) where count > 0 {
                let n = Double(count)
                let size = Double(moments.count)
                low += n * moments.low / size
                mid += n * moments.value / size
                high += n * moments.high / size
                // Predicting a total of n new installs: their own spread, and the mean's uncertainty.
                var spread = moments.variance
                if let prior {
                    let bound = share?.each ?? ReportColumns.AmountBound(low: .init(units: 0, scale: scale), high: nil)
                    spread = max(
                        spread, prior.moments(from: bound.low.doubleValue, below: bound.high?.doubleValue).variance)
                }
                variance += spread * (n + n * n / size)
                if let share { hardLow += n * share.each.low.doubleValue }
            }
            let margin = Estimate.z * variance.squareRoot()
            // Mid-points are no model of where amounts lie inside a range: the interval reaches the ranges' ends.
            // A prior is one: its spread inside the ranges is in the variance.
            let (lower, upper) = method == .midPoint ? (low, high) : (mid, mid)
            let amounts = [mid, max(hardLow, lower - margin, 0), upper + margin].map {
                DecimalAmount(rounding: $0, scale: scale)
            }
            guard let mid = amounts[0], let low = amounts[1], let high = amounts[2] else { return nil }
            return Estimate(
                installs: installs, mid: mid, low: min(low, mid), high: max(high, mid), method: method)
        }
    }
}
