import SkanCompiler
public import SkanCore
import SkanPostbacks

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

        /// An estimate of every install's revenue: `fineMid` and the estimate for the rest; nil when some
        /// install has no fine value and there is no estimate for it. Not a bound: the hard bounds are `low` and
        /// `high`.
        public var estimatedTotal: DecimalAmount? {
            guard withFineValue < installs else { return fineMid }
            return estimate.flatMap { fineMid.plus($0.mid) }
        }
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
    /// neither from all. The interval is the estimate's 95% prediction interval (a normal approximation over
    /// the range mid-points, widened to the ranges' low and high ends; an open-ended range counts at its lower
    /// bound), never below the hard lower bound.
    public struct Estimate: Sendable {
        /// Installs estimated for.
        public var installs: Int
        /// The estimate.
        public var mid: DecimalAmount
        /// The interval's ends.
        public var low: DecimalAmount
        /// The interval's upper end.
        public var high: DecimalAmount
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

    /// `field`'s figures over a group's window-1 `population`; nil when a total does not fit.
    static func installRevenue(
        _ field: ReportColumns.RevenueField, _ window: Population, columns: ReportColumns
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
        var sample = Sample(strata: CoarseValue.allCases.count)
        var fineMid = zero
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
            sample.add(range, count: count, stratum: columns.coarseOfFine[fine])
        }
        var shares: [CoarseShare] = []
        for (index, coarse) in CoarseValue.allCases.enumerated() where window.coarseValues[index] > 0 {
            let bound = field.coarseBounds[index]
            shares.append(CoarseShare(coarse: coarse, postbacks: window.coarseValues[index], each: bound))
            guard add(bound, times: window.coarseValues[index]) else { return nil }
        }
        guard add(.init(low: zero, high: nil), times: window.withoutValue) else { return nil }
        return InstallRevenue(
            installs: window.postbacks, withFineValue: window.withFineValue, fromCoarse: shares,
            withoutValue: window.withoutValue, low: low, high: high,
            estimate: sample.estimate(shares, withoutValue: window.withoutValue, scale: columns.scale),
            fineMid: fineMid)
    }
}
