import SkanPostbacks

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writing to standard output and standard error, unbuffered for errors and buffered in bulk for output.
enum Output {
    static func standard(_ text: String, terminator: String = "\n") {
        write(text + terminator, to: STDOUT_FILENO)
    }

    static func error(_ text: String, terminator: String = "\n") {
        write(text + terminator, to: STDERR_FILENO)
    }

    /// Whether standard error is a terminal, where diagnostics show the source line and a caret.
    static var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Writes all of `text`, retrying after interruptions; gives up silently when the reader is gone.
    static func write(_ text: String, to descriptor: Int32) {
        FileDescriptorOutput(descriptor: descriptor).write(text.utf8)
    }
}
