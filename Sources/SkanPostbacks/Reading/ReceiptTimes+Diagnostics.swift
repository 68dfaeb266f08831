public import SkanCore

extension DiagnosticCode {
    /// A `.times` line that is no receipt time, or a `.times` file of another length than its segment.
    public static let receiptTimeUnreadable = DiagnosticCode("receipt-time-unreadable")
}

extension ReceiptTimes {
    /// The warnings about these times for a segment of `lines` postback lines, located in the `.times` file: each
    /// line that is not Unix seconds (the first `shown`, then how many more), and a count that differs from the
    /// segment's. Such a line's `received_at` is empty, never a wrong time; `--by day` counts it under no day.
    public func diagnostics(lines: Int, shown: Int = 5) -> [Diagnostic] {
        let unreadable = seconds.indices.filter { seconds[$0] == nil && $0 < lines }
        var found = unreadable.prefix(shown).map { index in
            Diagnostic.warning(
                .receiptTimeUnreadable,
                "not Unix seconds (1 to 12 digits, at most 9999-12-31T23:59:59Z): line \(index + 1) of the segment has "
                    + "no received_at", at: SourceLocation(line: index + 1, column: 1, offset: 0))
        }
        if unreadable.count > shown {
            found.append(
                .warning(
                    .receiptTimeUnreadable,
                    "\(unreadable.count - shown) more lines are not Unix seconds (\(unreadable.count) in all)",
                    at: nil))
        }
        if seconds.count != lines {
            found.append(
                .warning(
                    .receiptTimeUnreadable,
                    "\(seconds.count) receipt times for \(lines) postback lines: "
                        + (seconds.count < lines
                            ? "the lines past \(seconds.count) have no received_at"
                            : "the times past line \(lines) belong to no line")
                        + "; is this the .times file skanc serve wrote beside the segment?", at: nil))
        }
        return found
    }
}
