#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file held open by its owner and closed with it: the receiver's segments, its outbox cursors and its
/// instance lock. Every write is retried until whole and every failure is a reason in words, so a durable log
/// is written by the same few lines as every other output.
package final class OpenFile: @unchecked Sendable {
    /// The path the file was opened at.
    package let path: String
    /// The open descriptor, closed when this is released.
    package let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// A new file for appending, created exclusively (never through a link or over another file); nil when the
    /// name is taken, so that the caller picks another.
    package static func createForAppending(_ path: String) throws(FileFailure) -> OpenFile? {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW, 0o640)
        if descriptor < 0, errno == EEXIST { return nil }
        guard descriptor >= 0 else { throw FileFailure("cannot create \(path) (\(systemReason()))") }
        return OpenFile(path: path, descriptor: descriptor)
    }

    /// A file open for reading and writing in place, created when missing (a cursor, a lock).
    package static func openForUpdate(_ path: String) throws(FileFailure) -> OpenFile {
        let descriptor = open(path, O_RDWR | O_CREAT, 0o640)
        guard descriptor >= 0 else { throw FileFailure("cannot open \(path) (\(systemReason()))") }
        return OpenFile(path: path, descriptor: descriptor)
    }

    /// A file open for writing in place (no appending): created when missing with `creating`, emptied first
    /// with `truncating`.
    package static func openForWriting(
        _ path: String, creating: Bool = false, truncating: Bool = false
    ) throws(FileFailure) -> OpenFile {
        let flags = O_WRONLY | (creating ? O_CREAT : 0) | (truncating ? O_TRUNC : 0)
        let descriptor = open(path, flags, 0o640)
        guard descriptor >= 0 else { throw FileFailure("cannot open \(path) (\(systemReason()))") }
        return OpenFile(path: path, descriptor: descriptor)
    }

    /// A file or folder open for reading, without waiting for a writer when it is a FIFO.
    package static func openForReading(_ path: String) throws(FileFailure) -> OpenFile {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK)
        guard descriptor >= 0 else { throw FileFailure("cannot read \(path) (\(systemReason()))") }
        return OpenFile(path: path, descriptor: descriptor)
    }

    /// Appends all of `bytes`; the reason of a failure, or nil.
    package func append(_ bytes: [UInt8]) -> String? {
        let output = FileDescriptorOutput(descriptor: descriptor)
        output.write(bytes)
        return output.failure.map { String(cString: strerror($0)) }
    }

    /// Writes `bytes` at `offset`, in place, retried until whole; false (with `errno` set) when it failed.
    package func write(_ bytes: [UInt8], at offset: Int) -> Bool {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes {
                pwrite(descriptor, $0.baseAddress! + written, $0.count - written, off_t(offset + written))
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            written += count
        }
        return true
    }

    /// Up to `count` bytes from `offset` (fewer at the end of the file); nil when the read fails.
    package func read(_ count: Int, at offset: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        while true {
            let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
            if read < 0, errno == EINTR { continue }
            guard read >= 0 else { return nil }
            return Array(bytes[..<read])
        }
    }

    /// Cuts the file to `size` bytes; false when it cannot be.
    package func cut(to size: Int) -> Bool {
        ftruncate(descriptor, off_t(size)) == 0
    }

    /// Makes what was written durable (see `syncData`); the reason of a failure, or nil.
    package func sync() -> String? {
        syncData(descriptor) ? nil : systemReason()
    }

    /// Takes an exclusive lock on the file for as long as it is open: false when another process holds it, a
    /// failure when the lock cannot be asked for.
    package func lockExclusively() throws(FileFailure) -> Bool {
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            guard errno == EWOULDBLOCK else { throw FileFailure("cannot lock \(path) (\(systemReason()))") }
            return false
        }
        return true
    }

    /// How many names the file has (0: deleted), or -1 when it cannot be read.
    package var linkCount: Int {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return -1 }
        return Int(info.st_nlink)
    }

    /// The file's device and inode, or nil when they cannot be read.
    package var identity: FileIdentity? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}

/// Makes what was written to `descriptor` durable: its bytes and what reading them back needs (its size). On
/// Linux that is `fdatasync`, which leaves out the modification time (about 10% faster than `fsync` on the
/// benchmark machine's disk). On Apple's systems `fsync` only hands the data to the drive, which "may not
/// physically write the data ... for quite some time" (fsync(2)): `F_FULLFSYNC` asks it to, and `fsync` is the
/// fallback on file systems that refuse it. False (with `errno` set) when it failed.
func syncData(_ descriptor: Int32) -> Bool {
    #if canImport(Darwin)
    if fcntl(descriptor, F_FULLFSYNC) == 0 { return true }
    return fsync(descriptor) == 0
    #else
    return fdatasync(descriptor) == 0
    #endif
}
