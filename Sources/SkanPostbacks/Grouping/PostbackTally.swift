import SkanCore
import SkanSchema

/// Counts of `ok` postbacks per group (`PostbackGrouping`), per window: postbacks, each fine value, each coarse
/// value and each privacy tier. What `skanc report` computes its figures from. Every batch of the reader counts
/// its rows into a `BatchTally`, with groups numbered in the batch; the ordered merge adds them up (renumbering the groups)
/// and takes back the rows it finds to be duplicates, so the tally counts exactly the rows `skanc postbacks` prints
/// as `ok`. Rows of other statuses are counted by `PostbackSummary`.
public struct PostbackTally: Sendable {
    /// What the groups are keyed by, in order.
    public let groupings: [PostbackGrouping]
    /// Whether a fine value of 0 counts as no value (for sources that report a missing value as 0).
    public let zeroIsNull: Bool
    /// Each group's key, in the order groups were first seen.
    public private(set) var keys: [[GroupValue]] = []
    /// A group's number by its encoded key (`encodedKey`).
    private var numbers = GroupNumbers()
    private var counts: [Int] = []

    /// Where each count of a window sits in a group's block.
    enum Layout {
        static let postbacks = 0, fineValues = 1, coarse = 65, tiers = 68
        /// Tiers 0...3 and one for a postback whose fields tell no tier.
        static let tierCount = 5
        /// Contributing networks' postbacks, then won re-engagements.
        static let contributed = tiers + tierCount, reengagements = contributed + 1
        /// The re-engagements' fine and coarse values again, apart: what the figures of installs leave out.
        static let reengagementFine = reengagements + 1, reengagementCoarse = reengagementFine + 64
        static let window = reengagementCoarse + 3
        static let group = window * 3
    }

    /// A tally with no group yet, grouping by `groupings`; `zeroIsNull` counts a fine value of 0 as none.
    public init(groupings: [PostbackGrouping], zeroIsNull: Bool = false) {
        self.groupings = groupings
        self.zeroIsNull = zeroIsNull
    }

    /// What a group counted in one window.
    public struct WindowCounts: Equatable, Sendable {
        /// `ok` postbacks.
        public var postbacks: Int
        /// Postbacks per fine value 0...63 (with `zeroIsNull`, none at 0).
        public var fineValues: [Int]
        /// Postbacks per coarse value: low, medium, high.
        public var coarseValues: [Int]
        /// Postbacks per privacy tier 0...3, and at 4 those whose fields tell none.
        public var tiers: [Int]
        /// Contributing networks' postbacks (`did-win: false`): no install of this network, and never a value.
        public var contributed: Int
        /// Re-engagements the network won (`conversion-type` `re-engagement`): conversions, not installs.
        public var reengagements: Int
        /// The re-engagements among `fineValues`, per fine value 0...63.
        public var reengagementFineValues: [Int] = Array(repeating: 0, count: 64)
        /// The re-engagements among `coarseValues`: low, medium, high.
        public var reengagementCoarseValues: [Int] = [0, 0, 0]

        /// Postbacks with a fine value.
        public var withFineValue: Int { fineValues.reduce(0, +) }
        /// Postbacks with a coarse value.
        public var withCoarseValue: Int { coarseValues.reduce(0, +) }
        /// Won postbacks with neither: what the privacy threshold hid (a contributing network's postback never
        /// carries a value, so it is left out).
        public var withoutValue: Int { postbacks - contributed - withFineValue - withCoarseValue }
        /// Installs the network won: its postbacks but contributions and re-engagements.
        public var installs: Int { postbacks - contributed - reengagements }

        /// The counts of this group and `other` together: what one group of both would have counted.
        public func adding(_ other: WindowCounts) -> WindowCounts {
            let sum = { (a: [Int], b: [Int]) in zip(a, b).map { $0 + $1 } }
            return WindowCounts(
                postbacks: postbacks + other.postbacks, fineValues: sum(fineValues, other.fineValues),
                coarseValues: sum(coarseValues, other.coarseValues), tiers: sum(tiers, other.tiers),
                contributed: contributed + other.contributed, reengagements: reengagements + other.reengagements,
                reengagementFineValues: sum(reengagementFineValues, other.reengagementFineValues),
                reengagementCoarseValues: sum(reengagementCoarseValues, other.reengagementCoarseValues))
        }

        /// The installs' fine values (`fineValues` but the re-engagements').
        public var installFineValues: [Int] { zip(fineValues, reengagementFineValues).map { $0 - $1 } }
        /// The installs' coarse values.
        public var installCoarseValues: [Int] { zip(coarseValues, reengagementCoarseValues).map { $0 - $1 } }
    }

    /// The counts of group `group` (an index in `keys`), window 1 first.
    public func windows(ofGroup group: Int) -> [WindowCounts] {
        (0..<3).map { window in
            let base = group * Layout.group + window * Layout.window
            return WindowCounts(
                postbacks: counts[base + Layout.postbacks],
                fineValues: Array(counts[(base + Layout.fineValues)..<(base + Layout.coarse)]),
                coarseValues: Array(counts[(base + Layout.coarse)..<(base + Layout.tiers)]),
                tiers: Array(counts[(base + Layout.tiers)..<(base + Layout.contributed)]),
                contributed: counts[base + Layout.contributed], reengagements: counts[base + Layout.reengagements],
                reengagementFineValues: Array(
                    counts[(base + Layout.reengagementFine)..<(base + Layout.reengagementCoarse)]),
                reengagementCoarseValues: Array(
                    counts[(base + Layout.reengagementCoarse)..<(base + Layout.window)]))
        }
    }

    /// The groups whose first value is `text` (a report of many apps groups by `app_id` first: one app's groups),
    /// keyed and counted as here.
    public func groups(whereFirstIs text: String) -> PostbackTally {
        var part = PostbackTally(groupings: groupings, zeroIsNull: zeroIsNull)
        for (group, key) in keys.enumerated() where key.first?.text == text {
            let encoded = Self.encodedKey(key)
            let number = encoded.withUnsafeBufferPointer { part.number(of: $0) }
            let block = group * Layout.group
            part.counts.replaceSubrange(
                (number * Layout.group)..<((number + 1) * Layout.group),
                with: counts[block..<(block + Layout.group)])
        }
        return part
    }

    /// The number of the group keyed `key` (encoded by `encodedKey`), made when it is new.
    private mutating func number(of key: UnsafeBufferPointer<UInt8>) -> Int {
        let (number, isNew) = numbers.number(of: key)
        if isNew {
            keys.append(Self.decodedKey(key, groupings: groupings))
            counts.append(contentsOf: repeatElement(0, count: Layout.group))
        }
        return number
    }

    /// One key as bytes to look up: each value as its column's letter and either `!` (empty) or the text's
    /// length in bytes, `:` and the text, so that no two keys encode alike (and `decodedKey` reads it back).
    static func encodedKey(_ values: [GroupValue]) -> [UInt8] {
        var key: [UInt8] = []
        for value in values {
            guard var text = value.text else {
                appendKey(letter(of: value.column), nil, to: &key)
                continue
            }
            text.withUTF8 { appendKey(letter(of: value.column), $0, to: &key) }
        }
        return key
    }

    /// Appends one value of a key: its column's `letter(of:)` and its text's UTF-8 (nil when the cell is empty).
    @inline(__always)
    static func appendKey(_ letter: UInt8, _ text: UnsafeBufferPointer<UInt8>?, to key: inout [UInt8]) {
        key.append(letter)
        guard let text else { return key.append(UInt8(ascii: "!")) }
        key.appendDecimal(text.count)
        key.append(UInt8(ascii: ":"))
        key.append(contentsOf: text)
    }

    /// The values of a key `encodedKey` wrote for `groupings`, value by value, named as each grouping names it.
    static func decodedKey(_ key: some Collection<UInt8>, groupings: [PostbackGrouping]) -> [GroupValue] {
        var values: [GroupValue] = []
        var bytes = key[...]
        while let letter = bytes.first {
            let column = PostbackColumn.allCases[Int(letter) - 65]
            let name = groupings[values.count].keyName(of: column)
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "!") {
                values.append(GroupValue(column: column, text: nil, name: name))
                bytes = bytes.dropFirst()
                continue
            }
            let colon = bytes.firstIndex(of: UInt8(ascii: ":"))!
            let length = Int(String(decoding: bytes[..<colon], as: UTF8.self))!
            let text = bytes[bytes.index(after: colon)...].prefix(length)
            values.append(GroupValue(column: column, text: String(decoding: text, as: UTF8.self), name: name))
            bytes = bytes[text.endIndex...]
        }
        return values
    }

    /// A column's letter in a key: `A`, `B`, ... in `PostbackColumn.allCases` order.
    static func letter(of column: PostbackColumn) -> UInt8 {
        UInt8(65 + PostbackColumn.allCases.firstIndex(of: column)!)
    }

    /// Counts an `ok` row in `group`. Rows of other statuses count nothing.
    mutating func count(_ record: RowRecord, group: Int) {
        guard record.status == .ok, group >= 0 else { return }
        count(CountedRow(record, group: Int32(group), zeroIsNull: zeroIsNull))
    }

    private mutating func count(_ row: CountedRow) {
        let base = Int(row.group) * Layout.group + Int(row.window)
        counts[base + Layout.postbacks] += 1
        if row.fine >= 0 { counts[base + Int(row.fine)] += 1 }
        if row.coarse >= 0 { counts[base + Int(row.coarse)] += 1 }
        counts[base + Int(row.tier)] += 1
        if row.attribution >= 0 { counts[base + Int(row.attribution)] += 1 }
        if row.attribution == Layout.reengagements {
            if row.fine >= 0 { counts[base + Layout.reengagementFine + Int(row.fine) - Layout.fineValues] += 1 }
            if row.coarse >= 0 { counts[base + Layout.reengagementCoarse + Int(row.coarse) - Layout.coarse] += 1 }
        }
    }

    /// Adds the rows a batch counted, then clears it. Returns, for each of the batch's group numbers, the
    /// number of the same group here.
    mutating func add(takingFrom batch: inout BatchTally) -> [Int] {
        var renumbered: [Int] = []
        renumbered.reserveCapacity(batch.numbers.count)
        batch.numbers.forEachKey { renumbered.append(number(of: $0)) }
        for var row in batch.rows {
            row.group = Int32(renumbered[Int(row.group)])
            count(row)
        }
        batch.removeAll()
        return renumbered
    }
}
