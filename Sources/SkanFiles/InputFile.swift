package import SkanCore

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file named on the command line, open for reading: a path (a regular file, a pipe, a process
/// substitution, a device) or `-` for standard input. Every command and both executables open their inputs
/// here, so each kind of file is read the same way and every failure is the same `file-unreadable`
/// diagnostic, never a silent end of input.
package final class InputFile {
    /// The path as given (`-` for standard input).
    package let path: String
    /// The descriptor to read; standard input's is never closed here.
    package let descriptor: Int32
    /// Whether `descriptor` was opened here (and is closed here).
    private let ownsDescriptor: Bool
    /// The file's size when it is a regular file; nil for standard input, pipes and devices.
    package let regularFileSize: Int?

    /// The name diagnostics and rows show: the path, or `<stdin>`.
    package var displayName: String { path == "-" ? "<stdin>" : path }

    /// Opens `path`; `what` says what the command expected there, for the message about a directory
    /// ("a .skan file"). With `regularOnly`, anything but a regular file (a FIFO, a device) is refused without
    /// blocking: for a file beside the one named (receipt times), which no one means to stream. `-` reads
    /// `standardInput`: a command passes its context's.
    package init(
        _ path: String, expecting what: String, regularOnly: Bool = false, standardInput: Int32
    ) throws(InputFileError) {
        self.path = path
        ownsDescriptor = path != "-"
        if path == "-" {
            descriptor = standardInput
        } else {
            var opened: Int32
            // Opening a FIFO for reading waits for a writer; without blocking it returns at once.
            let flags = regularOnly ? O_RDONLY | O_NONBLOCK : O_RDONLY
            repeat { opened = open(path, flags) } while opened < 0 && errno == EINTR
            guard opened >= 0 else {
                let code = errno
                throw InputFileError(
                    path: path,
                    reason: code == ENOENT
                        ? "no such file; check the path"
                        : "cannot open the file (\(Self.describe(code))); check the path and its permissions")
            }
            descriptor = opened
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            regularFileSize = nil
            return
        }
        if status.st_mode & S_IFMT == S_IFDIR {
            if ownsDescriptor { close(descriptor) }
            throw InputFileError(path: path, reason: "is a directory; name \(what)")
        }
        regularFileSize = status.st_mode & S_IFMT == S_IFREG ? Int(status.st_size) : nil
        if regularOnly, regularFileSize == nil {
            if ownsDescriptor { close(descriptor) }
            throw InputFileError(path: path, reason: "is not a regular file (a FIFO or device); \(what) must be one")
        }
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// The next bytes, at most `maximum`; empty only at the end of the file. An error is thrown, never taken
    /// for the end.
    package func nextChunk(maximum: Int = 1 << 20) throws(InputFileError) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: maximum)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count >= 0 {
                chunk.removeLast(maximum - count)
                return chunk
            }
            let code = errno
            if code == EINTR { continue }
            throw InputFileError(path: path, reason: "reading stopped (\(Self.describe(code)))")
        }
    }

    /// The whole file, or its first `limit` bytes: a caller with a size limit passes one byte more than it
    /// allows, to tell "at the limit" from "over it".
    package func contents(limit: Int = Int.max) throws(InputFileError) -> [UInt8] {
        var bytes: [UInt8] = []
        if let regularFileSize { bytes.reserveCapacity(min(regularFileSize, limit)) }
        while bytes.count < limit {
            let chunk = try nextChunk(maximum: min(1 << 20, limit - bytes.count))
            if chunk.isEmpty { break }
            bytes += chunk
        }
        return bytes
    }

    /// Opens and reads `path` in one step.
    package static func contents(
        of path: String, expecting what: String, limit: Int = Int.max, standardInput: Int32
    ) throws(InputFileError) -> [UInt8] {
        try InputFile(path, expecting: what, standardInput: standardInput).contents(limit: limit)
    }

    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

/// A file named on the command line that cannot be read: one `file-unreadable` diagnostic of it.
package struct InputFileError: Error, Sendable {
    package var path: String
    package var reason: String

    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    package var diagnostic: Diagnostic { .error(.fileUnreadable, reason, at: nil) }

    /// The name diagnostics show: the path, or `<stdin>`.
    package var displayName: String { path == "-" ? "<stdin>" : path }
}
