#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The tool's few file operations, on the C library: replacing a file atomically, printing to standard error
/// (files are read with `InputFile`, as every command reads them).
enum GeneratorFiles {
    /// Writes `bytes` to a new file beside `path` and renames it over `path`, so a reader never sees half a
    /// file; the cause of a failure, or nil.
    static func replace(_ path: String, with bytes: [UInt8]) -> String? {
        let temporary = path + ".skanc-generate-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        guard writeAll(bytes, to: descriptor) else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            unlink(temporary)
            return reason
        }
        guard close(descriptor) == 0, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            return reason
        }
        return nil
    }

    /// `text` and a line break on standard error.
    static func printError(_ text: String) {
        _ = writeAll(Array((text + "\n").utf8), to: 2)
    }

    /// Writes all of `bytes`, retrying interrupted and partial writes; false when a write fails (`errno` says why).
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            written += count
        }
        return true
    }
}
