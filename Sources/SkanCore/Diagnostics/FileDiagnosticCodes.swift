/// Codes of problems with a file as a whole, whatever it holds: every command reads and writes files.
extension DiagnosticCode {
    /// A file that does not exist, is a folder, or cannot be opened or read.
    public static let fileUnreadable = DiagnosticCode("file-unreadable")
    /// A file that cannot be written.
    public static let fileUnwritable = DiagnosticCode("file-unwritable")
}
