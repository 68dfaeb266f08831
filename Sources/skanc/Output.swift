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

    static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { write(bytes: UnsafeRawBufferPointer($0), to: descriptor) }
    }

    /// Writes all of `bytes`, retrying after interruptions; gives up silently when the reader is gone.
    static func write(bytes: UnsafeRawBufferPointer, to descriptor: Int32) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(descriptor, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}
