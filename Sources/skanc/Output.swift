#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing to standard output and standard error, unbuffered for errors and buffered in bulk for output.
enum Output {
    static func standard(_ text: String) {
        write(text + "\n", to: STDOUT_FILENO)
    }

    static func error(_ text: String) {
        write(text + "\n", to: STDERR_FILENO)
    }

    /// Whether standard error is a terminal, where diagnostics show the source line and a caret.
    static var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
