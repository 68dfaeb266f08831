/// Counts over a postback run. `read` is every non-blank line; each line has exactly one status, so
/// `read == ok + every problem count` always holds.
public struct PostbackSummary: Sendable {
    public private(set) var read = 0
    public private(set) var blank = 0
    /// Lines per status, in the order of `PostbackStatus.allCases`.
    private var statusCounts = Array(repeating: 0, count: PostbackStatus.allCases.count)
    /// Over `ok` lines with a fine value: how often each case of each field occurs (field index, code).
    public private(set) var caseCounts: [[Int]]
    public private(set) var fineValues = 0
    /// Over `ok` lines with a coarse value: counts per window (index 0 = window 1) and value (low, medium, high).
    public private(set) var coarseCounts: [[Int]] = Array(repeating: [0, 0, 0], count: 3)
    /// Over lines that are JSON objects, by digits of the source identifier (0: none; 5 stands for 5 or
    /// more): postbacks, and postbacks with neither a fine nor a coarse value.
    private var postbacksByDigits = Array(repeating: 0, count: 6)
    private var withoutValueByDigits = Array(repeating: 0, count: 6)

    let schema: Schema

    public init(schema: Schema) {
        self.schema = schema
        self.caseCounts = schema.fields.map { Array(repeating: 0, count: $0.bits.maximumCode + 1) }
    }

    public var ok: Int { statusCounts[0] }

    public func count(of status: PostbackStatus) -> Int {
        statusCounts[status.index]
    }

    mutating func countBlank(_ lines: Int = 1) { blank += lines }

    /// Counts a row, or with `times` -1 takes it back (when the merge finds that an `ok` row is a duplicate).
    mutating func count(_ row: RowRecord, times: Int = 1) {
        read += times
        statusCounts[row.status.index] += times
        guard row.isObject else { return }
        let digits = Int(row.sourceDigits)
        postbacksByDigits[digits] += times
        if !row.hasFineCell && !row.hasCoarseCell { withoutValueByDigits[digits] += times }
        guard row.status == .ok else { return }
        if row.fineIsValid {
            let fine = Int(row.fineValue)
            fineValues += times
            for (index, field) in schema.fields.enumerated() {
                caseCounts[index][(fine >> field.bits.lower) & field.bits.maximumCode] += times
            }
        }
        if row.coarse >= 0 {
            coarseCounts[Int(row.window) - 1][Int(row.coarse)] += times
        }
    }

    /// Adds the counts of another run over the same schema (a batch counted on its own), then clears them.
    mutating func add(takingFrom other: inout PostbackSummary) {
        read += other.read
        blank += other.blank
        fineValues += other.fineValues
        Self.add(&statusCounts, &other.statusCounts)
        Self.add(&postbacksByDigits, &other.postbacksByDigits)
        Self.add(&withoutValueByDigits, &other.withoutValueByDigits)
        for index in caseCounts.indices { Self.add(&caseCounts[index], &other.caseCounts[index]) }
        for index in coarseCounts.indices { Self.add(&coarseCounts[index], &other.coarseCounts[index]) }
        other.read = 0
        other.blank = 0
        other.fineValues = 0
    }

    private static func add(_ counts: inout [Int], _ other: inout [Int]) {
        for index in counts.indices {
            counts[index] += other[index]
            other[index] = 0
        }
    }

    /// The summary as text, for people.
    public var text: String {
        var out = "lines read: \(read) (blank lines skipped: \(blank))\n"
        out += "ok: \(ok)\n"
        let problems = PostbackStatus.allCases.filter { $0 != .ok && count(of: $0) > 0 }
        out += "problems: \(read - ok)" + (problems.isEmpty ? "\n" : "\n" + problems.map { "  \($0.rawValue): \(count(of: $0))" }.joined(separator: "\n") + "\n")
        out += "duplicates: \(count(of: .duplicate))\n"
        out += "fine values on ok lines: \(fineValues)\n"
        for (index, field) in schema.fields.enumerated() {
            let cells = field.cases.map { "\($0.name) \(caseCounts[index][$0.code])\(percent(caseCounts[index][$0.code], of: fineValues))" }
            out += "  \(ColumnNames.snakeCase(field.name)): " + cells.joined(separator: ", ") + "\n"
        }
        out += "coarse values on ok lines:\n"
        for window in Schema.windows {
            let counts = coarseCounts[window - 1]
            let total = counts.reduce(0, +)
            out += "  window \(window): " + zip(CoarseValue.allCases, counts).map { "\($0.rawValue) \($1)\(percent($1, of: total))" }.joined(separator: ", ") + "\n"
        }
        out += "postbacks without a value, by digits of the source identifier (the privacy tier):\n"
        for digits in 0..<6 where postbacksByDigits[digits] > 0 {
            let label = digits == 0 ? "no source-identifier" : digits == 5 ? "5 or more digits" : "\(digits) digits"
            let (without, all) = (withoutValueByDigits[digits], postbacksByDigits[digits])
            out += "  \(label): \(without) of \(all)\(percent(without, of: all))\n"
        }
        return out
    }

    private func percent(_ part: Int, of whole: Int) -> String {
        guard whole > 0 else { return "" }
        let tenths = (part * 1000 + whole / 2) / whole
        return " (\(tenths / 10).\(tenths % 10)%)"
    }
}
