import SkanCore
public import SkanPostbacks
public import SkanSchema

/// What `skanc report` says about decoded postbacks: per group (a campaign, by default) and window, how many
/// `ok` postbacks came, how many carried a fine value, a coarse value or neither (the privacy threshold's null
/// rate), their tiers, each field's cases and the coarse values; the revenue their `buckets amount` fields
/// imply, as range arithmetic; and every row that was not `ok`, by status. Built from a reader's tally and
/// summary, so it counts exactly the rows `skanc postbacks` prints.
public struct PostbackReport: Sendable {
    /// One group's figures.
    public struct Group: Sendable {
        /// The key: one value per grouping.
        public var by: [GroupValue]
        /// Windows 1, 2 and 3.
        public var windows: [Window]
        /// One total per `buckets amount` field.
        public var revenue: [Revenue]
        /// The group's spend and what it buys, when the report has a cost file (`withCost(_:)`) with rows for it.
        public var cost: Cost? = nil
        /// What the team calls the campaign, from a names file (`withNames(_:)`).
        public var name: String? = nil
        /// `ok` postbacks in every window.
        public var postbacks: Int { windows.reduce(0) { $0 + $1.postbacks } }
    }

    /// A group's figures in one window.
    public struct Window: Sendable {
        /// 1, 2 or 3.
        public var number: Int
        /// `ok` postbacks, and those with a fine value, with a coarse value and with neither.
        public var postbacks: Int
        /// Postbacks with a fine value.
        public var withFineValue: Int
        /// Postbacks with a coarse value.
        public var withCoarseValue: Int
        /// Won postbacks with neither (a contributing network's postback never carries a value).
        public var withoutValue: Int
        /// Contributing networks' postbacks (`did-win: false`): the App Reporting Pack's "contributed".
        public var contributed: Int
        /// Re-engagements the network won: conversions, not installs.
        public var reengagements: Int
        /// Installs the network won: the postbacks but contributions and re-engagements.
        public var installs: Int { postbacks - contributed - reengagements }
        /// The postbacks the network won (installs and re-engagements): what the value shares are of.
        public var won: Int { postbacks - contributed }
        /// Installs (re-engagements left out) with a fine value, and with a coarse value only.
        public var installsWithFineValue: Int, installsWithCoarseValue: Int
        /// Installs with neither value.
        public var installsWithoutValue: Int { installs - installsWithFineValue - installsWithCoarseValue }
        /// Postbacks per tier 0...3, then those whose fields tell none.
        public var tiers: [Int]
        /// Postbacks per coarse value: low, medium, high.
        public var coarse: [Int]
        /// The field columns and their cases: the report's, shared by every window.
        let columns: [ReportColumns.FieldColumn]
        /// Postbacks per case, over postbacks with a fine value: the cases of `columns`, column by column.
        let caseCounts: [Int]

        /// Per field column, postbacks per case (every case, zeros too), over postbacks with a fine value.
        public var fields: [(column: String, cases: [(name: String, postbacks: Int)])] {
            var counts = caseCounts.makeIterator()
            return columns.map { column in (column.name, column.cases.map { ($0, counts.next()!) }) }
        }
    }

    /// Revenue from one `buckets amount` field over a group's postbacks that show it.
    public struct Revenue: Sendable {
        /// The field whose buckets give this revenue, by its column name.
        public var field: String
        /// The currency, when the schema says it.
        public var currency: String?
        /// Postbacks whose fine value shows a range of the field.
        public var postbacks: Int
        /// The totals: every range at its lower bound, its mid-point and its upper bound (nil when a postback
        /// shows an open-ended range).
        public var low: DecimalAmount
        /// The mid-point total.
        public var mid: DecimalAmount
        /// The upper total; nil when a postback shows an open-ended range.
        public var high: DecimalAmount?
        /// Per range, the same totals.
        public var ranges: [RangeTotal]
        /// What the group's installs say together: hard bounds over all of them and an estimate for those
        /// without a fine value.
        public var installs: InstallRevenue
        /// The same over the group's re-engagements (window-1 postbacks of conversions that started at a
        /// re-engagement ad's open): revenue of its own, in no figure of installs; nil without one.
        public var reengagements: InstallRevenue? = nil
    }

    /// One range's share of a revenue total.
    public struct RangeTotal: Sendable {
        /// The case and its range as written.
        public var name: String
        /// The range as the schema writes it.
        public var range: String
        /// Postbacks that show it.
        public var postbacks: Int
        /// Those postbacks at the lower bound.
        public var low: DecimalAmount
        /// At the mid-point.
        public var mid: DecimalAmount
        /// At the upper bound; nil when open-ended.
        public var high: DecimalAmount?
    }

    /// What the groups are keyed by.
    public let groupings: [PostbackGrouping]
    /// Whether a fine value of 0 counted as no value.
    public let zeroIsNull: Bool
    /// The groups, in key order (empty values first, numbers by value).
    public internal(set) var groups: [Group]
    /// Rows per status other than `ok`, in `PostbackStatus` order, only statuses that occur.
    public let notOK: [(status: PostbackStatus, rows: Int)]
    /// Non-blank lines read, and `ok` rows.
    public let lines: Int
    /// Rows whose status is `ok`.
    public let ok: Int
    /// The versions the postbacks were decoded with.
    public let versions: LiveVersions
    /// What the report counts for those versions: the field columns and the revenue fields.
    public let columns: ReportColumns
    /// Revenue fields left out, each with why (a total too large to hold exactly, bounds that cannot be read), and
    /// cost rows that match no group.
    public internal(set) var notes: [String]
    /// The currency of the spend, when a cost file is joined (`withCost(_:)`); nil without one.
    public internal(set) var costCurrency: String? = nil
    /// Whether a names file named the campaigns (`withNames(_:)`): JSON and the wide CSV then say each group's name.
    public internal(set) var named = false
    /// The cost rows that match no group, and their spend (exact), when a cost file is joined: noted in every
    /// format, rows of their own in CSV.
    public internal(set) var unmatchedCost: (rows: Int, spend: DecimalAmount)? = nil
    /// What every row of the report shares, for the rows of no group (CSV's `not_ok`): the app, in a report of
    /// many apps (`ManyAppsReport`); none otherwise.
    var scope: [GroupValue] = []

    /// Per day received (when the report was made with `foldingDay`), window 1's counts over every group, in
    /// date order: the trend the page charts. Empty without receipt days.
    public internal(set) var trend: [TrendDay] = []

    /// One day of the trend: what the window-1 postbacks received that day counted, over every group.
    public struct TrendDay: Sendable {
        /// `2026-12-03`, the UTC day `skanc serve` received them.
        public var day: String
        /// Their counts.
        public var counts: PostbackTally.WindowCounts
    }

    /// The report of a reader's run: `tally` (its `ok` rows per group) and `summary` (every row's status);
    /// `prior`, when given, is what the revenue estimates read inside each range. With `foldingDay`, the tally's
    /// last grouping is the receipt day: the groups are those of the other groupings (each day's counts added up),
    /// and the days make `trend`.
    public init(
        tally: PostbackTally, summary: PostbackSummary, versions: LiveVersions, prior: RevenuePrior? = nil,
        foldingDay: Bool = false
    ) {
        var columns = ReportColumns(versions: versions)
        if let prior {
            for index in columns.revenue.indices {
                if let amounts = prior.distribution(of: columns.revenue[index].column) {
                    columns.revenue[index].read(amounts)
                }
            }
        }
        var notes = columns.unreadable.map {
            "\($0): a bound has too many digits to total exactly; its revenue is left out"
        }
        let casesOfFine = Self.caseCountIndices(columns, versions)
        var groups: [Group] = []
        var keyed = tally.keys.indices.map { (tally.keys[$0], tally.windows(ofGroup: $0)) }
        var trend: [TrendDay] = []
        if foldingDay, tally.groupings.last == .day {
            (keyed, trend) = Self.folding(keyed)
        }
        // Per network (every group when not grouped by network), window 1 over all its groups: what stands in for a
        // group's own fine-value installs when it has too few to estimate from.
        let network = tally.groupings.firstIndex(of: .adNetworkID)
        var pools: [String?: PostbackTally.WindowCounts] = [:]
        for (key, counts) in keyed {
            let name = network.flatMap { key[$0].text }
            pools[name] = pools[name].map { $0.adding(counts[0]) } ?? counts[0]
        }
        for (key, counts) in keyed {
            // A group whose only rows turned out to be duplicates in the merge has none left.
            guard counts.contains(where: { $0.postbacks > 0 }) else { continue }
            let pool = pools[network.flatMap { key[$0].text }]
            let windows = counts.enumerated().map { offset, window in
                Self.window(offset + 1, window, columns: columns, casesOfFine: casesOfFine)
            }
            var revenue: [Revenue] = []
            for field in columns.revenue {
                if let total = Self.revenue(field, counts, columns: columns, pool: pool) {
                    revenue.append(total)
                } else {
                    notes.append("\(field.column): a total is too large to hold exactly; its revenue is left out")
                }
            }
            groups.append(Group(by: key, windows: windows, revenue: revenue))
        }
        // The keys are sorted, then the groups moved once: moving groups as they sort copies their windows.
        let keys = groups.map(\.by)
        self.groups = keys.indices.sorted { Self.precedes(keys[$0], keys[$1]) }.map { groups[$0] }
        groupings = foldingDay && tally.groupings.last == .day ? tally.groupings.dropLast() : tally.groupings
        self.trend = trend
        zeroIsNull = tally.zeroIsNull
        notOK = PostbackStatus.allCases.filter { $0 != .ok }.map { ($0, summary.count(of: $0)) }.filter { $0.1 > 0 }
        lines = summary.read
        ok = summary.ok
        self.versions = versions
        self.columns = columns
        self.notes = Array(Set(notes)).sorted()
    }

    /// The groups of `keyed` (keys ending in the receipt day) with the day folded out, and the days' window-1
    /// counts over every group, in date order (no day last).
    private static func folding(
        _ keyed: [([GroupValue], [PostbackTally.WindowCounts])]
    ) -> (groups: [([GroupValue], [PostbackTally.WindowCounts])], trend: [TrendDay]) {
        var order: [[GroupValue]] = []
        var byKey: [[GroupValue]: [PostbackTally.WindowCounts]] = [:]
        var byDay: [String: PostbackTally.WindowCounts] = [:]
        for (key, counts) in keyed {
            let folded = Array(key.dropLast())
            if let sum = byKey[folded] {
                byKey[folded] = zip(sum, counts).map { $0.adding($1) }
            } else {
                order.append(folded)
                byKey[folded] = counts
            }
            guard let day = key.last?.text else { continue }
            byDay[day] = byDay[day].map { $0.adding(counts[0]) } ?? counts[0]
        }
        let trend = byDay.keys.sorted().map { day in
            TrendDay(day: day, counts: byDay[day]!)
        }
        return (order.map { ($0, byKey[$0]!) }, trend)
    }

    /// For each fine value, where its cases count in a window's `caseCounts`: found once for every group and
    /// window.
    private static func caseCountIndices(_ columns: ReportColumns, _ versions: LiveVersions) -> [[Int]] {
        let starts = columns.fields.reduce(into: [0]) { $0.append($0.last! + $1.cases.count) }
        return Schema.fineValueRange.map { fine in
            guard let names = versions.fieldCases(fine: fine)?.cases else { return [] }
            return names.enumerated().compactMap { index, name in
                guard let name, let at = columns.fields[index].cases.firstIndex(of: name) else { return nil }
                return starts[index] + at
            }
        }
    }

    private static func window(
        _ number: Int, _ counts: PostbackTally.WindowCounts, columns: ReportColumns, casesOfFine: [[Int]]
    ) -> Window {
        var caseCounts = Array(repeating: 0, count: columns.fields.reduce(0) { $0 + $1.cases.count })
        for fine in Schema.fineValueRange where counts.fineValues[fine] > 0 {
            for index in casesOfFine[fine] { caseCounts[index] += counts.fineValues[fine] }
        }
        return Window(
            number: number, postbacks: counts.postbacks, withFineValue: counts.withFineValue,
            withCoarseValue: counts.withCoarseValue, withoutValue: counts.withoutValue,
            contributed: counts.contributed, reengagements: counts.reengagements,
            installsWithFineValue: counts.installFineValues.reduce(0, +),
            installsWithCoarseValue: counts.installCoarseValues.reduce(0, +), tiers: counts.tiers,
            coarse: counts.coarseValues, columns: columns.fields, caseCounts: caseCounts)
    }

    /// A field's revenue over every window's fine values; nil when a total does not fit.
    private static func revenue(
        _ field: ReportColumns.RevenueField, _ windows: [PostbackTally.WindowCounts], columns: ReportColumns,
        pool: PostbackTally.WindowCounts?
    ) -> Revenue? {
        guard
            let installs = installRevenue(
                field, .installs(windows[0]), columns: columns, pool: pool.map(Population.installs))
        else { return nil }
        let reengagements =
            windows[0].reengagements > 0
            ? installRevenue(field, .reengagements(windows[0]), columns: columns) : nil
        var perRange = Array(repeating: 0, count: field.ranges.count)
        for window in windows {
            for fine in Schema.fineValueRange {
                if let range = field.rangeOfFine[fine] { perRange[range] += window.fineValues[fine] }
            }
        }
        let zero = DecimalAmount(units: 0, scale: field.ranges.first?.low.scale ?? 0)
        var ranges: [RangeTotal] = []
        var (low, mid, high): (DecimalAmount, DecimalAmount, DecimalAmount?) = (zero, zero, zero)
        for (range, count) in zip(field.ranges, perRange) {
            guard let rangeLow = range.low.times(count), let rangeMid = range.mid.times(count) else { return nil }
            var rangeHigh: DecimalAmount? = nil
            if let bound = range.high {
                guard let total = bound.times(count) else { return nil }
                rangeHigh = total
            }
            ranges.append(
                RangeTotal(
                    name: range.name, range: range.text, postbacks: count, low: rangeLow, mid: rangeMid,
                    high: rangeHigh))
            guard let nextLow = low.plus(rangeLow), let nextMid = mid.plus(rangeMid) else { return nil }
            (low, mid) = (nextLow, nextMid)
            if count > 0 {
                if let sum = high, let rangeHigh {
                    guard let next = sum.plus(rangeHigh) else { return nil }
                    high = next
                } else {
                    high = nil
                }
            }
        }
        return Revenue(
            field: field.column, currency: field.currency, postbacks: perRange.reduce(0, +), low: low, mid: mid,
            high: high, ranges: ranges, installs: installs, reengagements: reengagements)
    }

    /// Key order: value by value, an empty value first, numbers by value, other text by its bytes.
    static func precedes(_ a: [GroupValue], _ b: [GroupValue]) -> Bool {
        for (x, y) in zip(a, b) where x != y {
            if x.column != y.column { return x.column.name < y.column.name }
            guard let left = x.text else { return true }
            guard let right = y.text else { return false }
            let numeric = { (text: String) in !text.isEmpty && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
            if numeric(left), numeric(right), left.utf8.count != right.utf8.count {
                return left.utf8.count < right.utf8.count
            }
            return left.utf8.lexicographicallyPrecedes(right.utf8)
        }
        return false
    }
}
