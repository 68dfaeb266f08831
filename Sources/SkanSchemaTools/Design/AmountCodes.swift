public import SkanCore

/// The findings about a file of amounts that `suggest buckets` reads: its content, not whether it can be read
/// (`file-unreadable`).
extension DiagnosticCode {
    /// A line or cell that is not an amount (digits with an optional fraction, at most 1e15).
    public static let amountInvalid = DiagnosticCode("amount-invalid")
    /// `--column`: the file is not CSV, has no such column, or a row has no cell for it.
    public static let amountsCSV = DiagnosticCode("amounts-csv")
    /// No amount at all to cut.
    public static let amountsEmpty = DiagnosticCode("amounts-empty")
}
