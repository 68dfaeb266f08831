import SkanCore

/// What the summary counts of a decoded row, and for a row with a duplicate key what the ordered merge
/// needs: the key, and where the status cell sits in the batch's output, to rewrite it for a duplicate.
struct RowRecord {
    /// What a postback stands for in a report: an install the network won, a contributing network's postback
    /// (`did-win: false`, which carries no value), or a re-engagement the network won.
    enum Attribution: Int8 {
        case install, contributed, reengagement
    }

    enum Key {
        case none
        case uuid(UInt64, UInt64)
        /// Index into the batch's `keyTexts`.
        case text(Int)

        /// Whether there is a key to check.
        var exists: Bool {
            if case .none = self { false } else { true }
        }
    }

    var status: PostbackStatus
    var isObject: Bool
    /// 0...63, or -1 when the row has no fine value in range.
    var fineValue: Int8
    var fineIsValid: Bool
    /// The app's index in the run's `SchemaCatalog`, or -1 for an app it does not hold.
    var app: Int16
    /// Whether the postback carries a `conversion-value` or `coarse-conversion-value`, whatever its type.
    var carriesValue: Bool
    /// `SignatureOutcome.index`, or -1 when the signature was not checked.
    var signature: Int8
    /// 0 low, 1 medium, 2 high, or -1.
    var coarse: Int8
    var window: Int8
    /// What the summary groups postbacks by: 2, 3 or 4 digits of the source identifier, 1 for SKAdNetwork
    /// before 4.0 (a `campaign-id`), 0 for none that is valid.
    var source: Int8
    /// The privacy tier (0...3), or -1.
    var tier: Int8
    /// Whose the postback is (`Attribution`): a won install, a contributing network's, or a re-engagement.
    var attribution: Attribution
    /// The row's group in the batch's tally, or -1 (no tally, or not `ok`).
    var group: Int32
    var key: Key
    /// Where the status cell starts in the batch output.
    var statusOffset: Int

    init(row: PostbackRow, key: Key, statusOffset: Int, group: Int32 = -1) {
        status = row.status
        isObject = row.framework != nil
        fineValue = Int8(row.fineValue ?? -1)
        fineIsValid = row.fineIsValid
        app = Int16(clamping: row.app)
        carriesValue = row.carriesValue
        signature = Int8(row.signature?.index ?? -1)
        coarse = row.coarseValue.map { $0 == .low ? 0 : $0 == .medium ? 1 : 2 } ?? -1
        window = Int8(row.window)
        source = row.version.map { $0 < .v4 } == true ? 1 : Int8(row.sourceDigits)
        tier = row.tier
        attribution =
            row.didWin?.span.kind == .false
            ? .contributed : row.conversionType == .reengagement ? .reengagement : .install
        self.group = group
        self.key = key
        self.statusOffset = statusOffset
    }
}
