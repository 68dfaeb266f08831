import SkanCore

extension PostbackReport {
    /// The fine-value installs of a group as a sample of one amount field: per stratum (the window-1 coarse value
    /// of their state) and in all, the count and the sums of the ranges' low ends, mid-points and squares, and
    /// high ends (an open-ended range at its lower bound). Doubles: an estimate is a model, not a total.
    struct Sample {
        struct Moments {
            var count = 0
            var low = 0.0, mid = 0.0, midSquares = 0.0, high = 0.0

            mutating func add(_ range: ReportColumns.RevenueRange, count n: Int) {
                let mid = range.mid.doubleValue
                count += n
                low += Double(n) * range.low.doubleValue
                self.mid += Double(n) * mid
                midSquares += Double(n) * mid * mid
                high += Double(n) * (range.high ?? range.low).doubleValue
            }

            /// The sample variance of the mid-points.
            var variance: Double {
                guard count > 1 else { return 0 }
                let mean = mid / Double(count)
                return max(0, (midSquares - Double(count) * mean * mean) / Double(count - 1))
            }
        }

        var strata: [Moments]
        var all = Moments()

        init(strata: Int) { self.strata = Array(repeating: Moments(), count: strata) }

        mutating func add(_ range: ReportColumns.RevenueRange, count: Int, stratum: Int?) {
            all.add(range, count: count)
            if let stratum { strata[stratum].add(range, count: count) }
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
                mid += n * moments.mid / size
                high += n * moments.high / size
                // Predicting a total of n new installs: their own spread, and the mean's uncertainty.
                variance += moments.variance * (n + n * n / size)
                if let share { hardLow += n * share.each.low.doubleValue }
            }
            let margin = Estimate.z * variance.squareRoot()
            let amounts = [mid, max(hardLow, low - margin, 0), high + margin].map {
                DecimalAmount(rounding: $0, scale: scale)
            }
            guard let mid = amounts[0], let low = amounts[1], let high = amounts[2] else { return nil }
            return Estimate(installs: installs, mid: mid, low: min(low, mid), high: max(high, mid))
        }
    }
}
