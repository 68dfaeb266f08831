import SkanCompiler
import SkanCore
import SkanSchema

/// Revenue ranges for a `buckets amount` field, cut from observed amounts (`skanc suggest buckets`): the cut points
/// of 2^N ranges that make decoding by each range's mid-point lose the least revenue, found exactly by dynamic
/// programming over the distinct amounts, with quantile and log-spaced cuts beside them.
///
/// A range runs from its first amount to the next range's first (half-open); the top range to the largest amount
/// observed. An amount decoded from its range is the range's mid-point, so the error of an amount is its distance
/// from that mid-point, and a cut's error is the sum over all amounts (the mean is shown per install).
public struct BucketSuggestion: Sendable {
    /// How the cuts were chosen.
    public enum Method: String, CaseIterable, Sendable {
        case optimal, quantile
        case logSpaced = "log-spaced"
    }

    /// One way of cutting: the lower bound of each range (the first is 0), and the mean error per install of
    /// each range and of all.
    public struct Cut: Sendable {
        /// How the cuts were chosen.
        public var method: Method
        /// Lower bounds, ascending; the first is 0.
        public var lowers: [Double]
        /// Mean absolute error per install in each range (0 for an empty one).
        public var errorPerRange: [Double]
        /// The installs in each range.
        public var countPerRange: [Int]
        /// Mean absolute error per install over all amounts.
        public var meanError: Double
    }

    /// At most this many distinct amounts are cut exactly; beyond, the amounts are first grouped into this many
    /// quantiles (each at its mean), so that the search stays quadratic in a bounded size.
    public static let maximumDistinct = 2_000

    /// The amounts, sorted, as distinct values with their weights.
    let values: [Double]
    let weights: [Int]
    /// The cuts: optimal, quantile, log-spaced.
    public let cuts: [Cut]
    /// The number of ranges.
    public let ranges: Int

    /// Cuts of `amounts` (non-negative, finite) into `2^bits` ranges.
    public init(amounts: [Double], bits: Int) {
        ranges = 1 << bits
        let sorted = amounts.filter { $0.isFinite && $0 >= 0 }.sorted()
        var values: [Double] = []
        var weights: [Int] = []
        for amount in sorted {
            if values.last == amount {
                weights[weights.count - 1] += 1
            } else {
                values.append(amount)
                weights.append(1)
            }
        }
        let lowest: [Double]
        (values, weights, lowest) = Self.grouped(values, weights, to: Self.maximumDistinct)
        self.values = values
        self.weights = weights
        let errors = RangeErrors(values: values, weights: weights)
        cuts = [
            Self.cut(.optimal, starts: Self.optimalStarts(errors, ranges: ranges), errors: errors, lowest: lowest),
            Self.cut(.quantile, starts: Self.quantileStarts(weights, ranges: ranges), errors: errors, lowest: lowest),
            Self.cut(.logSpaced, starts: Self.logStarts(values, ranges: ranges), errors: errors, lowest: lowest),
        ]
    }

    /// The exact optimum: `best[k][j]` is the least error of cutting values `0..<j` into `k` ranges, each range
    /// `i..<j` costing `errors.cost(i, j)`. Returns each range's first index.
    static func optimalStarts(_ errors: RangeErrors, ranges: Int) -> [Int] {
        let n = errors.count
        guard n > 0 else { return [] }
        let parts = min(ranges, n)
        // Every range's cost once (a range does not depend on how many came before it): the search below then
        // adds and compares, where it searched for each range's mid-point 64 times over (10,000 amounts at six
        // bits: 3.6 s). Row j holds the ranges i..<j for i in 0..<j.
        var costs = [Double](repeating: 0, count: n * (n + 1) / 2)
        for j in 1...n {
            let row = j * (j - 1) / 2
            for i in 0..<j { costs[row + i] = errors.cost(i, j) }
        }
        // The least error of values 0..<j in k ranges, one row of k at a time; `from` keeps each row's choices.
        var previous = [Double](repeating: .infinity, count: n + 1)
        previous[0] = 0
        var current = previous
        var from = [Int](repeating: 0, count: (parts + 1) * (n + 1))
        for k in 1...parts {
            for j in 0...n { current[j] = .infinity }
            for j in k...n {
                let row = j * (j - 1) / 2
                var least = Double.infinity
                var choice = 0
                for i in (k - 1)..<j {
                    let total = previous[i] + costs[row + i]
                    if total < least {
                        least = total
                        choice = i
                    }
                }
                current[j] = least
                from[k * (n + 1) + j] = choice
            }
            swap(&previous, &current)
        }
        var starts: [Int] = []
        var end = n
        for k in stride(from: parts, to: 0, by: -1) {
            let start = from[k * (n + 1) + end]
            starts.append(start)
            end = start
        }
        return starts.reversed()
    }

    static func quantileStarts(_ weights: [Int], ranges: Int) -> [Int] {
        let total = weights.reduce(0, +)
        guard total > 0 else { return [] }
        // A range starts where the share of installs before an amount crosses the next 1/2^N; ties at one amount
        // (many zeros, say) leave fewer ranges.
        var starts = [0]
        var lastBand = 0
        var seen = 0
        for (index, weight) in weights.enumerated() {
            let band = seen * ranges / total
            if index > 0, band > lastBand, starts.count < ranges {
                starts.append(index)
                lastBand = band
            }
            seen += weight
        }
        return starts
    }

    static func logStarts(_ values: [Double], ranges: Int) -> [Int] {
        guard let top = values.last, top > 0 else { return values.isEmpty ? [] : [0] }
        let floor = max(values.first { $0 > 0 } ?? top, 0.01)
        var starts = [0]
        // Bounds in a geometric series from the smallest positive amount to the largest.
        let ratio = nthRoot(top / floor, ranges)
        var bound = floor
        for _ in 1..<ranges {
            bound *= ratio
            if let index = values.firstIndex(where: { $0 >= bound }), index > starts.last! { starts.append(index) }
        }
        return starts
    }

    /// The `n`th root of `value` (at least 1), by Newton's method: the library has no `pow` without Foundation.
    static func nthRoot(_ value: Double, _ n: Int) -> Double {
        guard value > 1, n > 1 else { return max(value, 1) }
        var root = 1 + (value - 1) / Double(n)
        for _ in 0..<200 {
            var power = 1.0
            for _ in 0..<(n - 1) { power *= root }
            let next = root - (power * root - value) / (Double(n) * power)
            if abs(next - root) <= 1e-12 * root { return next }
            root = next
        }
        return root
    }

    /// A cut at `starts`; each range begins at the lowest amount of its first point (`lowest`), an amount of the
    /// file as written (`45.49`, never a grouped mean such as `45.49333333333333`), so its counts are exact.
    static func cut(_ method: Method, starts: [Int], errors: RangeErrors, lowest: [Double]) -> Cut {
        let ends = Array(starts.dropFirst()) + [lowest.count]
        let lowers = starts.enumerated().map { $0 == 0 ? 0 : lowest[$1] }
        let counts = zip(starts, ends).map { errors.weight($0, $1) }
        let sums = zip(starts, ends).map { errors.cost($0, $1) }
        let total = counts.reduce(0, +)
        return Cut(
            method: method, lowers: lowers,
            errorPerRange: zip(sums, counts).map { $1 == 0 ? 0 : $0 / Double($1) }, countPerRange: counts,
            meanError: total == 0 ? 0 : sums.reduce(0, +) / Double(total))
    }

    /// At most `limit` points: runs of equal weight share merged at their weighted mean (for the errors), with
    /// the lowest amount of each run (where a range starting at the run begins).
    static func grouped(_ values: [Double], _ weights: [Int], to limit: Int) -> ([Double], [Int], [Double]) {
        guard values.count > limit else { return (values, weights, values) }
        let total = weights.reduce(0, +)
        var groupedValues: [Double] = []
        var groupedWeights: [Int] = []
        var lowest: [Double] = []
        var (sum, weight, seen) = (0.0, 0, 0)
        var first: Double?
        for (value, count) in zip(values, weights) {
            first = first ?? value
            sum += value * Double(count)
            weight += count
            seen += count
            if seen * limit / total > groupedValues.count || seen == total {
                groupedValues.append(sum / Double(weight))
                groupedWeights.append(weight)
                lowest.append(first!)
                (sum, weight, first) = (0, 0, nil)
            }
        }
        return (groupedValues, groupedWeights, lowest)
    }

    /// A `buckets amount` field of the optimal cut, ready to paste: `r0 = 0 0..<a1` … `rK = K top...`.
    public func fieldBlock(name: String, event: String, bits: Int) -> String {
        let lowers = cuts[0].lowers
        var lines = [
            "field \(name) at bits 0...\(bits - 1) \"Revenue (cut by skanc suggest buckets)\" buckets amount of \(event) {"
        ]
        for (index, lower) in lowers.enumerated() {
            let range =
                index + 1 < lowers.count
                ? "\(ConditionNumber.text(lower))..<\(ConditionNumber.text(lowers[index + 1]))"
                : "\(ConditionNumber.text(lower))..."
            lines.append("  r\(index) = \(index) \(range)")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The error of decoding a run of sorted values by its range's mid-point, in constant time from prefix sums: a
/// run `i..<j` spans from `values[i]` to the next run's first value (`values[j]`), or to its own last value for
/// the top run.
struct RangeErrors {
    let values: [Double]
    let weights: [Int]
    let prefixWeight: [Int]
    let prefixSum: [Double]

    init(values: [Double], weights: [Int]) {
        self.values = values
        self.weights = weights
        var weight = [0]
        var sum = [0.0]
        for (value, count) in zip(values, weights) {
            weight.append(weight.last! + count)
            sum.append(sum.last! + value * Double(count))
        }
        prefixWeight = weight
        prefixSum = sum
    }

    var count: Int { values.count }

    func weight(_ start: Int, _ end: Int) -> Int { prefixWeight[end] - prefixWeight[start] }

    /// The summed distance of values `start..<end` from their range's mid-point.
    func cost(_ start: Int, _ end: Int) -> Double {
        guard start < end else { return 0 }
        let top = end < values.count ? values[end] : values[end - 1]
        let mid = (values[start] + top) / 2
        // Values below the mid-point, then the rest.
        var low = start
        var high = end
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < mid { low = middle + 1 } else { high = middle }
        }
        let belowWeight = Double(prefixWeight[low] - prefixWeight[start])
        let belowSum = prefixSum[low] - prefixSum[start]
        let aboveWeight = Double(prefixWeight[end] - prefixWeight[low])
        let aboveSum = prefixSum[end] - prefixSum[low]
        return (mid * belowWeight - belowSum) + (aboveSum - mid * aboveWeight)
    }
}
