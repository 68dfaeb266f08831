/// Fine values written as runs, `2...7, 10, 12...15`: how every message and diff names a set of values.
package enum ValueRuns {
    package static func text(_ values: [Int]) -> String {
        var runs: [String] = []
        var index = 0
        let sorted = values.sorted()
        while index < sorted.count {
            var end = index
            while end + 1 < sorted.count, sorted[end + 1] == sorted[end] + 1 { end += 1 }
            runs.append(end == index ? "\(sorted[index])" : "\(sorted[index])...\(sorted[end])")
            index = end + 1
        }
        return runs.joined(separator: ", ")
    }
}
