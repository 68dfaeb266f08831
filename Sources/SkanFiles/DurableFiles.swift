#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Files and folders written so that they survive a crash or a power loss: every write whole and fsync'ed,
/// every new name made durable through its folder. The receiver's store and outbox keep their postbacks,
/// receipt times, cursors and rejects through these; `FileOutput` is the command line's counterpart, which
/// replaces a file the user named.
package enum DurableFiles {
    /// Creates a folder unless it exists; true when it was created.
    @discardableResult
    package static func makeDirectory(_ path: String) throws(FileFailure) -> Bool {
        if mkdir(path, 0o750) == 0 { return true }
        if errno == EEXIST { return false }
        throw FileFailure("cannot create the folder \(path) (\(systemReason()))")
    }

    /// Makes a folder's entries durable (a new file's name), with `fsync`: its data is its entries. The reason
    /// of a failure, or nil.
    package static func syncDirectory(_ path: String) -> String? {
        let folder: OpenFile
        do { folder = try OpenFile.openForReading(path) } catch { return systemReason() }
        return fsync(folder.descriptor) == 0 ? nil : systemReason()
    }

    /// The names in a folder, without `.` and `..`; empty when it cannot be read.
    package static func entries(of path: String) -> [String] {
        guard let handle = opendir(path) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Whether `path` names a regular file itself (not through a link).
    package static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// The whole of a regular file; a FIFO or device is refused (opened without blocking, never read). Read by
    /// `InputFile`, the one reader of every command's inputs.
    package static func contents(_ path: String) throws(FileFailure) -> [UInt8] {
        do {
            return try InputFile(path, expecting: "a file", regularOnly: true, standardInput: -1).contents()
        } catch {
            throw FileFailure("cannot read \(path): \(error.reason)")
        }
    }

    /// A file holding `bytes` and nothing else (created, or emptied first), fsync'ed.
    package static func write(_ bytes: [UInt8], to path: String) throws(FileFailure) {
        let file = try OpenFile.openForWriting(path, creating: true, truncating: true)
        if let reason = file.append(bytes) ?? file.sync() { throw FileFailure("cannot write \(path) (\(reason))") }
    }

    /// Cuts the file at `path` to `size` bytes, then appends `tail` (nothing by default), fsync'ed.
    package static func replaceTail(
        of path: String, from size: Int, with tail: [UInt8] = []
    ) throws(FileFailure) {
        let file: OpenFile
        do { file = try OpenFile.openForWriting(path) } catch {
            throw FileFailure("cannot cut \(path) to \(size) bytes (\(systemReason()))")
        }
        guard file.cut(to: size) else { throw FileFailure("cannot cut \(path) to \(size) bytes (\(systemReason()))") }
        guard file.write(tail, at: size) else { throw FileFailure("cannot write \(path) (\(systemReason()))") }
        if let reason = file.sync() { throw FileFailure("cannot write \(path) (\(reason))") }
    }

    /// Fails when a file cannot be created in `folder` (read-only, no permission): what a store that cannot be
    /// written is refused by before anything is promised.
    package static func checkWritable(_ folder: String) throws(FileFailure) {
        let path = folder + "/.skanc-write-check-\(getpid())"
        do { _ = try OpenFile.openForWriting(path, creating: true, truncating: true) } catch {
            throw FileFailure("cannot write in \(folder) (\(systemReason()))")
        }
        unlink(path)
    }

    /// Removes the file at `path`, if there is one.
    package static func remove(_ path: String) {
        unlink(path)
    }

    /// Bytes free for an unprivileged writer on the file system of `path` (`statvfs`), or nil when it cannot be
    /// told.
    package static func availableBytes(at path: String) -> Int? {
        var status = statvfs()
        guard statvfs(path, &status) == 0 else { return nil }
        return Int(status.f_bavail) &* Int(status.f_frsize)
    }
}
