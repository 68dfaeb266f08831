#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why a file operation of `OpenFile` or `DurableFiles` failed, in words that name the file.
package struct FileFailure: Error, CustomStringConvertible {
    package var description: String

    /// A failure saying `description`.
    package init(_ description: String) {
        self.description = description
    }
}

/// The C library's words for `code` (by default the last call's `errno`).
package func systemReason(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
}

/// Which file a path or descriptor named when it was looked at: its device and inode.
package struct FileIdentity: Equatable, Sendable {
    package var device: UInt64
    package var inode: UInt64

    /// The identity of what `path` names (following links), or nil when it cannot be read.
    package init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    package init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}
