import SkanCore
public import SkanSchema

/// Counts over a postback run. `read` is every non-blank line; each line has exactly one status, so
/// `read == ok + every problem count` always holds. Where postbacks are routed by app, the figures are kept per
/// app (and for the lines of no app's) as well: `app(_:)` is one app's summary.
public struct PostbackSummary: Sendable {
    /// Every count in one array, so counting a row checks the array's uniqueness once rather than once per
    /// figure: a block of figures per app (one block when postbacks are not routed) and one for the lines of no
    /// app's, then the fine values. The layout is in `Layout`.
    private var counts: [Int]
    /// How many blocks of figures there are.
    private let blocks: Int
    /// The schemas lines are decoded with: one app's versions, or several apps'.
    let catalog: SchemaCatalog
    /// The versions of the first app (the only one, unless postbacks are routed by app).
    var versions: LiveVersions { catalog.apps[0].versions }
    var schema: Schema { versions.schemas.last! }

    /// Where each figure sits in `counts`.
    private struct Layout: Sendable {
        static let read = 0, blank = 1, fineValues = 2, statuses = 3
        /// Lines per status, in the order of `PostbackStatus.allCases`.
        static let postbacksByDigits = statuses + PostbackStatus.allCases.count
        /// Over lines that are JSON objects, by `RowRecord.source` (0: no valid source identifier, 1:
        /// SKAdNetwork before 4.0, 2-4: digits): postbacks, and postbacks carrying neither a fine nor a
        /// coarse value (a mistyped value is still a value).
        static let withoutValueByDigits = postbacksByDigits + 6
        /// Over `ok` lines with a coarse value: by window and value, `(window - 1) * 3 + value`.
        static let coarse = withoutValueByDigits + 6
        /// Lines per signature outcome, in the order of `SignatureOutcome.allCases`.
        static let signatures = coarse + 9
        /// The figures of one block; after the blocks, over `ok` lines with a valid fine value, lines per app and
        /// fine value 0...63 (`app * 64 + fine`), from which the cases of each field are counted when asked (with
        /// the version each value belongs to).
        static let block = signatures + SignatureOutcome.allCases.count
    }

    /// Where the fine value counts start.
    private var fineValueCounts: Int { blocks * Layout.block }

    /// A figure over every block.
    private func total(_ offset: Int) -> Int {
        stride(from: offset, to: fineValueCounts, by: Layout.block).reduce(0) { $0 + counts[$1] }
    }

    /// Zero counts for versions live together: each fine value counts for the version it belongs to.
    public init(versions: LiveVersions) {
        precondition(!versions.schemas.isEmpty, "a summary needs a schema")
        self.init(catalog: SchemaCatalog(versions))
    }

    /// Zero counts for the apps of `catalog`: each fine value counts for its app's version it belongs to.
    public init(catalog: SchemaCatalog) {
        self.catalog = catalog
        blocks = catalog.routesByApp ? catalog.apps.count + 1 : 1
        counts = Array(repeating: 0, count: blocks * Layout.block + catalog.apps.count * 64)
    }

    /// The summary of the lines of the app at `index` in the catalog (those its versions decoded), as a run over
    /// them alone would count them.
    public func app(_ index: Int) -> PostbackSummary {
        var summary = PostbackSummary(versions: catalog.apps[index].versions)
        let block = catalog.routesByApp ? index : 0
        summary.counts =
            Array(counts[(block * Layout.block)..<((block + 1) * Layout.block)])
            + counts[(fineValueCounts + index * 64)..<(fineValueCounts + index * 64 + 64)]
        return summary
    }

    /// Lines no app's versions decoded (`unknown-app`, and lines that tell no app), with `status`; none unless
    /// postbacks are routed by app.
    public func countWithoutApp(of status: PostbackStatus) -> Int {
        catalog.routesByApp ? counts[(blocks - 1) * Layout.block + Layout.statuses + status.index] : 0
    }

    /// Non-blank lines read.
    public var read: Int { total(Layout.read) }
    /// Blank lines skipped.
    public var blank: Int { total(Layout.blank) }
    /// `ok` lines with a fine value that is a state of the schema.
    public var fineValues: Int { total(Layout.fineValues) }
    /// Lines whose status is `ok`.
    public var ok: Int { count(of: .ok) }

    /// Lines whose signature came to `outcome` (none when signatures are not verified).
    public func count(of outcome: SignatureOutcome) -> Int {
        total(Layout.signatures + outcome.index)
    }

    /// Lines with `status`.
    public func count(of status: PostbackStatus) -> Int {
        total(Layout.statuses + status.index)
    }

    /// Over `ok` lines with a fine value: how often each case of each field occurs (field index, code), in
    /// the newest version (the only one, unless several are live together).
    public var caseCounts: [[Int]] { caseCounts(of: schema) }

    /// Over `ok` lines with a fine value of `version` (of the app at `app` in the catalog): how often each case of
    /// each field occurs.
    public func caseCounts(of version: Schema, app: Int = 0) -> [[Int]] {
        var result = version.fields.map { Array(repeating: 0, count: $0.bits.maximumCode + 1) }
        let versions = catalog.apps[app].versions
        for fine in Schema.fineValueRange where versions.owner(of: fine) == .version(version) {
            let lines = counts[fineValueCounts + app * 64 + fine]
            guard lines > 0 else { continue }
            for (index, field) in version.fields.enumerated() {
                result[index][(fine >> field.bits.lower) & field.bits.maximumCode] += lines
            }
        }
        return result
    }

    /// `ok` lines with a fine value of `version` (of the app at `app` in the catalog).
    public func fineValues(of version: Schema, app: Int = 0) -> Int {
        let versions = catalog.apps[app].versions
        return Schema.fineValueRange.filter { versions.owner(of: $0) == .version(version) }.reduce(0) {
            $0 + counts[fineValueCounts + app * 64 + $1]
        }
    }

    /// Over `ok` lines with a coarse value: counts per window (index 0 = window 1) and value (low, medium, high).
    public var coarseCounts: [[Int]] {
        (0..<3).map { window in (0..<3).map { total(Layout.coarse + window * 3 + $0) } }
    }

    private var postbacksByDigits: [Int] { (0..<6).map { total(Layout.postbacksByDigits + $0) } }
    private var withoutValueByDigits: [Int] { (0..<6).map { total(Layout.withoutValueByDigits + $0) } }

    mutating func countBlank(_ lines: Int = 1) { counts[Layout.blank] += lines }

    /// Counts a row, once its status is final.
    mutating func count(_ row: RowRecord) {
        // The row's app's block; the last for a row of no app's (one block when postbacks are not routed).
        let base = (row.app >= 0 ? min(Int(row.app), blocks - 1) : blocks - 1) * Layout.block
        let fineValueCounts = self.fineValueCounts
        counts.withUnsafeMutableBufferPointer { counts in
            counts[base + Layout.read] += 1
            counts[base + Layout.statuses + row.status.index] += 1
            if row.signature >= 0 { counts[base + Layout.signatures + Int(row.signature)] += 1 }
            guard row.isObject else { return }
            let source = Int(row.source)
            counts[base + Layout.postbacksByDigits + source] += 1
            if !row.carriesValue { counts[base + Layout.withoutValueByDigits + source] += 1 }
            guard row.status == .ok else { return }
            if row.fineIsValid {
                counts[base + Layout.fineValues] += 1
                counts[fineValueCounts + Int(row.app) * 64 + Int(row.fineValue)] += 1
            }
            if row.coarse >= 0 {
                counts[base + Layout.coarse + (Int(row.window) - 1) * 3 + Int(row.coarse)] += 1
            }
        }
    }

    /// Adds the counts of another run over the same schema (a batch counted on its own), then clears them.
    mutating func add(takingFrom other: inout PostbackSummary) {
        for index in counts.indices {
            counts[index] += other.counts[index]
            other.counts[index] = 0
        }
    }

    /// The summary as text, for people.
    public var text: String {
        var out = "lines read: \(read) (blank lines skipped: \(blank))\n"
        out += "ok: \(ok)\n"
        let problems = PostbackStatus.allCases.filter { $0 != .ok && count(of: $0) > 0 }
        out +=
            "problems: \(read - ok)"
            + (problems.isEmpty
                ? "\n" : "\n" + problems.map { "  \($0.code): \(count(of: $0))" }.joined(separator: "\n") + "\n")
        out += "duplicates: \(count(of: .duplicate))\n"
        let signatures = SignatureOutcome.allCases.map { ($0, count(of: $0)) }
        if signatures.contains(where: { $0.1 > 0 }) {
            out += "signatures: " + signatures.map { "\($0.rawValue) \($1)" }.joined(separator: ", ") + "\n"
        }
        out += "fine values on ok lines: \(fineValues)\n"
        for (index, app) in catalog.apps.enumerated() {
            let routed = app.appID.map { "  app \($0) (\(app.versions.schemas.last!.name)): " }
            if let routed {
                out += routed + "\(app.versions.schemas.reduce(0) { $0 + fineValues(of: $1, app: index) })\n"
            }
            let several = app.versions.schemas.count > 1 || routed != nil
            for version in app.versions.schemas {
                let (caseCounts, total) = (
                    self.caseCounts(of: version, app: index), fineValues(of: version, app: index)
                )
                let indent = String(repeating: " ", count: (routed == nil ? 0 : 2) + (several ? 4 : 2))
                if several { out += indent.dropLast(2) + "version \(version.version): \(total)\n" }
                for (field, item) in version.fields.enumerated() {
                    let cells = item.cases.map {
                        "\($0.name) \(caseCounts[field][$0.code])\(percent(caseCounts[field][$0.code], of: total))"
                    }
                    out += "\(indent)\(ColumnNames.snakeCase(item.name)): " + cells.joined(separator: ", ") + "\n"
                }
            }
        }
        out += "coarse values on ok lines:\n"
        for window in ConversionWindow.allCases {
            let counts = coarseCounts[window.postbackSequenceIndex]
            let total = counts.reduce(0, +)
            out +=
                "  window \(window): "
                + zip(CoarseValue.allCases, counts).map { "\($0.rawValue) \($1)\(percent($1, of: total))" }.joined(
                    separator: ", ") + "\n"
        }
        out += "postbacks without a value, by digits of the source identifier (the privacy tier):\n"
        let (postbacksByDigits, withoutValueByDigits) = (self.postbacksByDigits, self.withoutValueByDigits)
        for digits in [2, 3, 4, 0, 1] where postbacksByDigits[digits] > 0 {
            let label =
                digits == 0
                ? "no valid source-identifier"
                : digits == 1 ? "SKAdNetwork before 4.0 (campaign-id)" : "\(digits) digits"
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
