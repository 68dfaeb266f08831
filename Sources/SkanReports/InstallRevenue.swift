public import SkanCore
import SkanPostbacks
import SkanSchema

extension PostbackReport {
    /// What a group's installs (its window-1 postbacks the network won but re-engagements: every install sends
    /// one, whatever its tier) say about an amount field together; the same for its re-engagements apart. Hard bounds that hold whatever the users did: a fine value's range, the range a
    /// coarse value allows under the schema's coarse rules, and for a postback with neither, at least 0 and no
    /// upper bound. Beside them, an estimate for the installs without a fine value, from the group's own
    /// fine-value postbacks: a model, labelled as one, whose interval's coverage `Benchmarks/revenue_coverage.py`
    /// measures on simulated truth.
    public struct InstallRevenue: Sendable {
        /// Window-1 postbacks counted: the installs the network won (a contributing network's postback is no
        /// install of this network's and carries no value; a re-engagement is a conversion, counted apart).
        public var installs: Int
        /// Those with a fine value.
        public var withFineValue: Int
        /// Those with a coarse value only, per coarse value that occurs, with the bound each stands for.
        public var fromCoarse: [CoarseShare]
        /// Those with neither (tier 0, or a threshold not reached).
        public var withoutValue: Int
        /// Every install at the least it can have.
        public var low: DecimalAmount
        /// Every install at the most it can have; nil when one is not bounded (a postback without a value, an
        /// open-ended range).
        public var high: DecimalAmount?
        /// The estimate for the installs without a fine value; nil when there are none, or the group has fewer
        /// than two fine-value postbacks to estimate from.
        public var estimate: Estimate?
        /// The installs with a fine value at their ranges' mid-points (an open-ended range at its lower bound).
        public var fineMid: DecimalAmount
        /// An estimate of every install's revenue, with its interval and method: the fine-value installs at what
        /// their ranges stand for (`WithinRange`, or the mid-points), the others at the estimate for them; nil
        /// when some install has no fine value and there is no estimate for it. Not a bound: the hard bounds are
        /// `low` and `high`, and the interval never leaves them.
        public var total: Estimate?

        /// `total`'s mid.
        public var estimatedTotal: DecimalAmount? { total?.mid }
    }

    /// Coarse-only window-1 postbacks of one coarse value.
    public struct CoarseShare: Sendable {
        /// The coarse value.
        public var coarse: CoarseValue
        /// Postbacks that show it and no fine value.
        public var postbacks: Int
        /// What each of them can hold, by the coarse rules.
        public var each: ReportColumns.AmountBound
    }

    /// The revenue of installs without a fine value, estimated from the group's fine-value installs: those with a
    /// coarse value from the fine-value installs whose state has that coarse value (post-stratified), those with
    /// neither from all. The interval is the estimate's 95% prediction interval (a normal approximation), never
    /// below the hard lower bound; what a fine value's range stands for depends on `method`.
    public struct Estimate: Sendable {
        /// What an install showing a range stands for.
        public enum Method: String, Sendable {
            /// The range's mid-point (an open-ended range at its lower bound), the interval widened to the ranges'
            /// ends: no model of where amounts lie inside a range, so a wide interval and a mid that is biased
            /// where amounts crowd at one end of a range.
            case midPoint = "mid-point"
            /// The mean of a prior's amounts inside the range (`RevenuePrior`, `skanc report --amounts`), with
            /// their spread in the interval.
            case prior
        }
        /// Installs estimated for.
        public var installs: Int
        /// The estimate.
        public var mid: DecimalAmount
        /// The interval's ends.
        public var low: DecimalAmount
        /// The interval's upper end; nil when it is open (an estimate over every install whose hard bounds are
        /// open, without a prior).
        public var high: DecimalAmount?
        /// How the ranges were read.
        public var method: Method
        /// Whether the group had too few fine-value installs of its own (fewer than two) and the installs of
        /// every group of its network stood in for them.
        public var pooled = false
        /// The interval's nominal coverage, in percent.
        public static let confidence = 95
        /// The normal quantile of `confidence`.
        static let z = 1.959_963_985
    }

    /// Window-1 postbacks of one kind: the installs, or the re-engagements.
    struct Population {
        var postbacks: Int
        var fineValues: [Int]
        var coarseValues: [Int]

        var withFineValue: Int { fineValues.reduce(0, +) }
        var withoutValue: Int { postbacks - withFineValue - coarseValues.reduce(0, +) }

        static func installs(_ window: PostbackTally.WindowCounts) -> Population {
            Population(
                postbacks: window.installs, fineValues: window.installFineValues,
                coarseValues: window.installCoarseValues)
        }

        static func reengagements(_ window: PostbackTally.WindowCounts) -> Population {
            Population(
                postbacks: window.reengagements, fineValues: window.reengagementFineValues,
                coarseValues: window.reengagementCoarseValues)
        }
    }

    /// The fine-value installs of `population` as a sample of `field`.
    static func sample(of population: Population, _ field: ReportColumns.RevenueField, columns: ReportColumns)
        -> Sample
    {
        var sample = Sample(strata: CoarseValue.allCases.count, prior: field.prior)
        for fine in Schema.fineValueRange where population.fineValues[fine] > 0 {
            guard let index = field.rangeOfFine[fine] else { continue }
            let range = field.ranges[index]
            let stands =
                field.withinRanges.map { Sample.Stands(value: $0[index].value, variance: $0[index].variance) }
                ?? Sample.Stands(value: range.mid.doubleValue, variance: 0)
            sample.add(range, stands, count: population.fineValues[fine], stratum: columns.coarseOfFine[fine])
        }
        return sample
    }

    /// `field`'s figures over a group's window-1 `population`; nil when a total does not fit. When the group has
    /// fewer than two fine-value installs to estimate the others from, `pool` (the installs of every group of its
    /// network) stands in for them.
    static func installRevenue(
        _ field: ReportColumns.RevenueField, _ window: Population, columns: ReportColumns, pool: Population? = nil
    ) -> InstallRevenue? {
        let zero = DecimalAmount(units: 0, scale: columns.scale)
        var low = zero
        var high: DecimalAmount? = zero
        func add(_ bound: ReportColumns.AmountBound, times count: Int) -> Bool {
            guard count > 0 else { return true }
            guard let part = bound.low.times(count), let sum = low.plus(part) else { return false }
            low = sum
            if let each = bound.high, let total = high {
                guard let part = each.times(count), let sum = total.plus(part) else { return false }
                high = sum
            } else {
                high = nil
            }
            return true
        }
        var sample = Sample(strata: CoarseValue.allCases.count, prior: field.prior)
        let method = sample.method
        var fineMid = zero
        // The fine-value installs' own estimate: what their ranges stand for, and its variance.
        var (fineValue, fineVariance, fineLow, fineHigh) = (0.0, 0.0, 0.0, 0.0)
        for fine in Schema.fineValueRange where window.fineValues[fine] > 0 {
            let count = window.fineValues[fine]
            guard let index = field.rangeOfFine[fine] else {
                guard add(.init(low: zero, high: nil), times: count) else { return nil }
                continue
            }
            let range = field.ranges[index]
            guard add(.init(low: range.low, high: range.high), times: count) else { return nil }
            guard let part = range.mid.times(count), let sum = fineMid.plus(part) else { return nil }
            fineMid = sum
            let stands =
                field.withinRanges.map { Sample.Stands(value: $0[index].value, variance: $0[index].variance) }
                ?? Sample.Stands(value: range.mid.doubleValue, variance: 0)
            fineValue += Double(count) * stands.value
            fineVariance += Double(count) * stands.variance
            fineLow += Double(count) * range.low.doubleValue
            fineHigh += range.high.map { Double(count) * $0.doubleValue } ?? .infinity
            sample.add(range, stands, count: count, stratum: columns.coarseOfFine[fine])
        }
        var shares: [CoarseShare] = []
        for (index, coarse) in CoarseValue.allCases.enumerated() where window.coarseValues[index] > 0 {
            let bound = field.coarseBounds[index]
            shares.append(CoarseShare(coarse: coarse, postbacks: window.coarseValues[index], each: bound))
            guard add(bound, times: window.coarseValues[index]) else { return nil }
        }
        guard add(.init(low: zero, high: nil), times: window.withoutValue) else { return nil }
        var estimate = sample.estimate(shares, withoutValue: window.withoutValue, scale: columns.scale)
        if estimate == nil, let pool {
            estimate = Self.sample(of: pool, field, columns: columns)
                .estimate(shares, withoutValue: window.withoutValue, scale: columns.scale)
            estimate?.pooled = true
        }
        var revenue = InstallRevenue(
            installs: window.postbacks, withFineValue: window.withFineValue, fromCoarse: shares,
            withoutValue: window.withoutValue, low: low, high: high, estimate: estimate, fineMid: fineMid)
        // The fine-value installs' part: with a prior, its spread inside the ranges; without, the ranges' ends.
        let margin = Estimate.z * fineVariance.squareRoot()
        revenue.total = total(
            of: revenue,
            fine: method == .prior
                ? (fineValue, fineValue - margin, fineValue + margin) : (fineMid.doubleValue, fineLow, fineHigh),
            method: method, scale: columns.scale)
        return revenue
    }

    /// Every install's estimate: the fine-value installs' (`fine`: value and interval) and the estimate for the
    /// rest, its interval the sum of both parts' intervals, inside the hard bounds.
    private static func total(
        of revenue: InstallRevenue, fine: (value: Double, low: Double, high: Double), method: Estimate.Method,
        scale: Int
    ) -> Estimate? {
        guard revenue.installs > 0 else { return nil }
        var (mid, low, high) = fine
        if revenue.withFineValue < revenue.installs {
            guard let rest = revenue.estimate else { return nil }
            mid += rest.mid.doubleValue
            low += rest.low.doubleValue
            high += rest.high?.doubleValue ?? .infinity
        }
        let hardLow = revenue.low.doubleValue
        let hardHigh = revenue.high?.doubleValue ?? .infinity
        let upper = min(high, hardHigh)
        guard let mid = DecimalAmount(rounding: mid, scale: scale),
            let low = DecimalAmount(rounding: max(low, hardLow), scale: scale)
        else { return nil }
        let top = upper.isFinite ? DecimalAmount(rounding: upper, scale: scale).map { max($0, mid) } : nil
        var total = Estimate(installs: revenue.installs, mid: mid, low: min(low, mid), high: top, method: method)
        total.pooled = revenue.estimate?.pooled ?? false
        return total
    }
}
