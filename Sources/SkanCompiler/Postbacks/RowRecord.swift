/// What the ordered merge step needs to know of a decoded row: its status so far, the facts the summary
/// counts, its duplicate key, and where its rendered cells end in the batch's output.
struct RowRecord {
    enum Key {
        case none
        case uuid(UInt64, UInt64)
        /// Index into the batch's `keyTexts`.
        case text(Int)
    }

    var line: Int
    var status: PostbackStatus
    var isObject: Bool
    /// 0...63, or -1 when the row has no fine value in range.
    var fineValue: Int8
    var fineIsValid: Bool
    var hasFineCell: Bool
    var hasCoarseCell: Bool
    /// 0 low, 1 medium, 2 high, or -1.
    var coarse: Int8
    var window: Int8
    var sourceDigits: Int8
    var key: Key
    /// End of this row's rendered cells in the batch output; it starts where the previous row's ended.
    var suffixEnd: Int

    init(line: Int, row: PostbackRow, key: Key, suffixEnd: Int) {
        self.line = line
        status = row.status
        isObject = row.kind != nil
        fineValue = Int8(row.fineValue ?? -1)
        fineIsValid = row.fineIsValid
        hasFineCell = row.fineCell != nil
        hasCoarseCell = row.coarseCell != nil
        coarse = row.coarseValue.map { $0 == .low ? 0 : $0 == .medium ? 1 : 2 } ?? -1
        window = Int8(row.window)
        sourceDigits = Int8(min(row.sourceDigits, 5))
        self.key = key
        self.suffixEnd = suffixEnd
    }
}
