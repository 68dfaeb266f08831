/// One batch's `ok` rows for a report, as the decoding thread sees them: each group's encoded key (numbered
/// in the batch) and, per row, its group and what it counts. The ordered merge adds them to the reader's
/// `PostbackTally`. A row list rather than a block of counts per group: a batch of a few thousand lines
/// often holds as many groups (campaigns drawn at random), and adding a block of every count for each one
/// cost more than counting the rows again.
struct BatchTally {
    /// Each group's key (`PostbackTally.encodedKey`), numbered in the order the batch first saw it.
    private(set) var numbers = GroupNumbers()
    /// The rows counted, in order.
    private(set) var rows: [CountedRow] = []

    /// The number of the group keyed `key`, made when it is new.
    mutating func number(of key: [UInt8]) -> Int32 {
        Int32(key.withUnsafeBufferPointer { numbers.number(of: $0).number })
    }

    mutating func count(_ row: CountedRow) {
        rows.append(row)
    }

    mutating func removeAll() {
        numbers.removeAll()
        rows.removeAll(keepingCapacity: true)
    }
}

/// What one `ok` row adds to its group's counts in its window: the postback, its fine value (when it has
/// one that counts), its coarse value and its tier. Made once, by `init`, for both the batch's count and
/// the merge's take-back of a duplicate.
struct CountedRow {
    /// The row's group: in its batch's tally, or in the reader's.
    var group: Int32
    /// Offsets into one group's block of counts (`PostbackTally.Layout`); -1 for none.
    var fine: Int16
    var coarse: Int16
    var tier: Int16
    /// Where the row's window starts in the block.
    var window: Int16
    /// The offset of its contributed or re-engagement count; -1 for a won install.
    var attribution: Int16

    /// The counts of `record` (an `ok` row) in `group`. With `zeroIsNull`, a fine value of 0 counts as none.
    init(_ record: RowRecord, group: Int32, zeroIsNull: Bool) {
        typealias Layout = PostbackTally.Layout
        self.group = group
        window = Int16((Int(record.window) - 1) * Layout.window)
        fine =
            record.fineIsValid && !(zeroIsNull && record.fineValue == 0)
            ? Int16(Layout.fineValues + Int(record.fineValue)) : -1
        coarse = record.coarse >= 0 ? Int16(Layout.coarse + Int(record.coarse)) : -1
        tier = Int16(Layout.tiers + (record.tier >= 0 ? Int(record.tier) : 4))
        switch record.attribution {
        case .install: attribution = -1
        case .contributed: attribution = Int16(Layout.contributed)
        case .reengagement: attribution = Int16(Layout.reengagements)
        }
    }
}
