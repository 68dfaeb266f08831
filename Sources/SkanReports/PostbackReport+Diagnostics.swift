public import SkanCore
import SkanPostbacks

extension DiagnosticCode {
    /// Some lines of a report's input were not `ok` (bad signatures, damaged lines…): counted apart.
    public static let rowsNotOK = DiagnosticCode("rows-not-ok")
}

extension PostbackReport {
    /// A warning when some lines were not `ok`, with how many of each status, so that a report read alone does
    /// not hide them; nil when every line was.
    public var notOKWarning: Diagnostic? {
        guard ok < lines else { return nil }
        return .warning(
            .rowsNotOK,
            "\(lines - ok) of \(lines) lines were not ok ("
                + notOK.map { "\($0.status.code) \($0.rows)" }.joined(separator: ", ")
                + "); the report counts them under not_ok: `skanc postbacks` shows each line's status",
            at: nil)
    }
}
