import SkanCompiler

/// What one line says, checked: the status, and the values of the output columns as spans of the line
/// (or of the decoded JWS payload), ready for a row writer. Holds no heap memory of its own.
struct PostbackRow {
    enum Kind: UInt8 { case skadnetwork, adattributionkit }

    /// A cell: a JSON value's span and where it lives, or nothing.
    typealias Cell = PostbackFields.Value?

    var status: PostbackStatus = .ok
    var kind: Kind? = nil
    var version: Cell = nil
    var transactionID: Cell = nil
    var adNetworkID: Cell = nil
    var sourceID: Cell = nil
    var appID: Cell = nil
    var sequenceIndex: Cell = nil
    var didWin: Cell = nil
    var fidelityType: Cell = nil
    var redownload: Cell = nil
    var countryCode: Cell = nil
    /// The fine value when it is a whole number in 0...63.
    var fineValue: Int? = nil
    /// The `conversion-value` as sent, for a row whose value is out of range or mistyped.
    var fineCell: Cell = nil
    /// The coarse value when it is low, medium or high.
    var coarseValue: CoarseValue? = nil
    var coarseCell: Cell = nil
    /// The window the postback reports on: postback-sequence-index + 1 (1 when absent).
    var window: Int = 1
    /// Whether `fineValue` is a state of the schema; its field columns are filled only then.
    var fineIsValid = false
    /// The number of digits of the source identifier (the privacy tier shows in it), 0 when absent.
    var sourceDigits = 0

    /// Lowers the status to `problem` unless an earlier check already found one (first problem wins).
    @inline(__always)
    mutating func flag(_ problem: PostbackStatus) {
        if status == .ok { status = problem }
    }
}
