/// The exit codes scripts can rely on.
package enum ExitStatus: Int32 {
    /// Everything checked, decoded or written.
    case success = 0
    /// The input has an error (a schema error, a value that does not decode, a file that cannot be read).
    case failure = 1
    /// `skanc diff` only, where 1 says values change meaning: a schema has errors or cannot be read.
    case unusableInput = 2
    /// The command line is wrong (unknown command or flag, missing argument); `EX_USAGE` from sysexits.
    case usage = 64
}
