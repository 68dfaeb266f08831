import SkanCompiler

/// What the summary counts of a decoded row, and for a row with a duplicate key what the ordered merge
/// needs: the key, and where the status cell sits in the batch's output, to rewrite it for a duplicate.
struct RowRecord {
    enum Key {
        case none
        case uuid(UInt64, UInt64)
        /// Index into the batch's `keyTexts`.
        case text(Int)
    }

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
    /// Where the status cell starts in the batch output.
    var statusOffset: Int

    init(row: PostbackRow, key: Key, statusOffset: Int) {
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
        self.statusOffset = statusOffset
    }
}
