import SkanCore

/// What installs made in a period whose amounts are known (last month's first-two-day revenue per install, from
/// the app's own analytics): per `buckets amount` field, one amount per install. Inside each range of the field,
/// their mean is what a postback showing that range stands for, and their spread how far one install can stray
/// from it: a range's mid-point is no estimate where amounts crowd at one end (most installs of `0.01..<5` made a
/// few cents) or where the range is open (`20...`).
public struct RevenuePrior: Sendable {
    /// Per field column (`revenue`), the amounts.
    public var amounts: [String: [Double]]

    /// The prior of `amounts`, per field column.
    public init(amounts: [String: [Double]]) {
        self.amounts = amounts
    }

    /// The prior's amounts of `column`, ready to be asked about any span; nil when it has none.
    func distribution(of column: String) -> Distribution? {
        guard let amounts = amounts[column], !amounts.isEmpty else { return nil }
        return Distribution(amounts)
    }

    /// One field's prior amounts, sorted, with running sums: the count, mean and variance of those in any span in
    /// logarithmic time.
    struct Distribution: Sendable {
        private let sorted: [Double]
        private let sums: [Double]
        private let squares: [Double]

        init(_ amounts: [Double]) {
            sorted = amounts.sorted()
            var (sum, square) = (0.0, 0.0)
            var (sums, squares) = ([0.0], [0.0])
            for amount in sorted {
                sum += amount
                square += amount * amount
                sums.append(sum)
                squares.append(square)
            }
            (self.sums, self.squares) = (sums, squares)
        }

        /// The amounts at least `low` and below `high` (no upper end when nil): count, mean and sample variance.
        func moments(from low: Double, below high: Double?) -> (count: Int, mean: Double, variance: Double) {
            let start = index(of: low)
            let end = high.map(index(of:)) ?? sorted.count
            let count = max(0, end - start)
            guard count > 0 else { return (0, 0, 0) }
            let sum = sums[end] - sums[start]
            let mean = sum / Double(count)
            guard count > 1 else { return (1, mean, 0) }
            let variance = (squares[end] - squares[start] - Double(count) * mean * mean) / Double(count - 1)
            return (count, mean, max(0, variance))
        }

        /// The number of amounts below `value`.
        private func index(of value: Double) -> Int {
            var (low, high) = (0, sorted.count)
            while low < high {
                let middle = (low + high) / 2
                if sorted[middle] < value { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }
}

extension ReportColumns {
    /// What a postback showing one range stands for in an estimate: a value and the variance of an install's
    /// amount around it. From a prior's amounts in the range when it has some; else the mid-point and a uniform
    /// spread over a closed range, the lower bound and no spread for an open one (a low estimate).
    public struct WithinRange: Sendable {
        /// The prior amounts the figures come from; 0 when they are the range's own.
        public var priorAmounts: Int
        /// The value an install in the range stands for.
        public var value: Double
        /// The variance of one install's amount around `value`.
        public var variance: Double

        init(_ range: RevenueRange, prior: RevenuePrior.Distribution) {
            let moments = prior.moments(from: range.low.doubleValue, below: range.high?.doubleValue)
            priorAmounts = moments.count
            guard moments.count > 0 else {
                value = range.mid.doubleValue
                let width = range.high.map { $0.doubleValue - range.low.doubleValue } ?? 0
                variance = width * width / 12
                return
            }
            (value, variance) = (moments.mean, moments.variance)
        }
    }
}
