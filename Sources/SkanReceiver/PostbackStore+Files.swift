import SkanPostbacks

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The store's file operations on the C library: every write retried until whole, every durable step
/// fsync'ed, every failure a reason in words.
extension PostbackStore {
    static func reason(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }

    /// A file's device and inode, or nil when it cannot be read.
    static func identity(_ path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// An open file's device and inode, or nil when it cannot be read.
    static func identity(of descriptor: Int32) -> FileIdentity? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// Whether `path` names a regular file itself (not through a link).
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Takes `DIR/.lock-<instance>` for the life of the process (the descriptor returned), or fails when another
    /// live receiver holds it.
    static func lockInstance(directory: String, instance: String) throws(Failure) -> Int32 {
        let path = directory + "/.lock-" + instance
        let descriptor = open(path, O_RDWR | O_CREAT, 0o640)
        guard descriptor >= 0 else { throw Failure(description: "cannot create \(path) (\(reason()))") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let failure = errno == EWOULDBLOCK ? nil : reason()
            close(descriptor)
            throw Failure(
                description: failure.map { "cannot lock \(path) (\($0))" }
                    ?? "another skanc serve with --instance \(instance) is using the store \(directory): give each "
                    + "receiver sharing a store its own --instance")
        }
        return descriptor
    }

    /// How many names an open file has (0: deleted), or -1 when it cannot be read.
    static func linkCount(_ descriptor: Int32) -> Int {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return -1 }
        return Int(info.st_nlink)
    }

    /// Fails when a file cannot be created in `folder` (read-only, no permission), so that a store the receiver
    /// cannot write is refused before it listens rather than answered 503 postback after postback.
    static func checkWritable(_ folder: String) throws(Failure) {
        let path = folder + "/.skanc-write-check-\(getpid())"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o640)
        guard descriptor >= 0 else { throw Failure(description: "cannot write in \(folder) (\(reason()))") }
        close(descriptor)
        unlink(path)
    }

    /// Creates a folder unless it exists; true when it was created.
    @discardableResult
    static func makeDirectory(_ path: String) throws(Failure) -> Bool {
        if mkdir(path, 0o750) == 0 { return true }
        if errno == EEXIST { return false }
        throw Failure(description: "cannot create the folder \(path) (\(reason()))")
    }

    /// The names in a folder, without `.` and `..`; empty when it cannot be read.
    static func entries(of path: String) -> [String] {
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

    /// The whole of a regular file; a FIFO or device is refused (opened without blocking, never read).
    static func contents(_ path: String) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK)
        guard descriptor >= 0 else { throw Failure(description: "cannot read \(path) (\(reason()))") }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw Failure(description: "cannot read \(path): not a regular file")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw Failure(description: "cannot read \(path) (\(reason()))") }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
        }
    }

    /// A new file holding `bytes`, fsync'ed.
    static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o640)
        guard descriptor >= 0 else { throw Failure(description: "cannot create \(path) (\(reason()))") }
        defer { close(descriptor) }
        if let failure = writeAll(bytes, to: descriptor) ?? sync(descriptor) {
            throw Failure(description: "cannot write \(path) (\(failure))")
        }
    }

    static func truncate(_ path: String, to size: Int) throws(Failure) {
        let descriptor = open(path, O_WRONLY)
        guard descriptor >= 0, ftruncate(descriptor, off_t(size)) == 0, sync(descriptor) == nil else {
            let failure = reason()
            if descriptor >= 0 { close(descriptor) }
            throw Failure(description: "cannot cut \(path) to \(size) bytes (\(failure))")
        }
        close(descriptor)
    }

    /// Writes all of `bytes`; the reason of a failure, or nil.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> String? {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return count == 0 ? "nothing written" : reason() }
            written += count
        }
        return nil
    }

    /// Makes what was written to a file durable: its bytes and what reading them back needs (its size). On
    /// Linux that is `fdatasync`, which leaves out the modification time (about 10% faster than `fsync` on the
    /// benchmark machine's disk). On Apple's systems `fsync` only hands the data to the drive, which "may not
    /// physically write the data ... for quite some time" (fsync(2)): `F_FULLFSYNC` asks it to, and `fsync` is
    /// the fallback on file systems that refuse it.
    static func sync(_ descriptor: Int32) -> String? {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return nil }
        return fsync(descriptor) == 0 ? nil : reason()
        #else
        return fdatasync(descriptor) == 0 ? nil : reason()
        #endif
    }

    /// Cuts the `.times` file at `path` to `lines` lines, or fills it up to `lines` with its last time (see
    /// `PostbackStore`: a line whose time a crash left unwritten was received in that second). A file with no
    /// whole line is left as it is: there is no time to repeat.
    ///
    /// When no whole time was written at all (a crash between the first batch's data and its times), the lines
    /// are that first batch's, received in the second that names the segment: `opened`.
    static func recoverTimes(_ path: String, lines: Int, opened: Int) throws(Failure) {
        guard lines > 0 else { return }
        var times = (try? contents(path)) ?? []
        if !times.contains(10) {
            times = Array(ReceiptTimes.line(opened).utf8)
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o640)
            guard descriptor >= 0 else { throw Failure(description: "cannot complete \(path) (\(reason()))") }
            defer { close(descriptor) }
            if let failure = writeAll(times, to: descriptor) ?? sync(descriptor) {
                throw Failure(description: "cannot complete \(path) (\(failure))")
            }
        }
        var count = 0
        var end = 0
        while end < times.count, count < lines {
            if times[end] == 10 { count += 1 }
            end += 1
        }
        if end < times.count { try truncate(path, to: end) }
        guard count < lines else { return }
        // A torn last time (no line break) is cut before the whole ones are repeated.
        let whole = times[..<end].lastIndex(of: 10).map { $0 + 1 } ?? 0
        guard whole > 0 else { return }
        let last = times[..<(whole - 1)].lastIndex(of: 10).map { $0 + 1 } ?? 0
        let missing = lines - times[..<whole].count { $0 == 10 }
        let descriptor = open(path, O_WRONLY)
        guard descriptor >= 0 else { throw Failure(description: "cannot complete \(path) (\(reason()))") }
        defer { close(descriptor) }
        let filled = Array(repeatElement(times[last..<whole], count: missing).joined())
        if ftruncate(descriptor, off_t(whole)) != 0 || lseek(descriptor, off_t(whole), SEEK_SET) < 0 {
            throw Failure(description: "cannot complete \(path) (\(reason()))")
        }
        if let failure = writeAll(filled, to: descriptor) ?? sync(descriptor) {
            throw Failure(description: "cannot complete \(path) (\(failure))")
        }
    }

    /// Makes a folder's entries durable (a new segment's name), with `fsync`: its data is its entries.
    static func syncDirectory(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return reason() }
        defer { close(descriptor) }
        return fsync(descriptor) == 0 ? nil : reason()
    }
}

/// Which file a path named when it was looked at.
struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64
}

extension PostbackStore {
    /// The whole lines of a stored range from its start, about `chunkBytes` of them (more when one line is longer),
    /// or nil when the segment cannot be read back (said on standard error, with what the reading was `for`).
    static func wholeLines(of range: StoredRange, about chunkBytes: Int, for purpose: String) -> [UInt8]? {
        let descriptor = open(range.path, O_RDONLY | O_NONBLOCK)
        guard descriptor >= 0 else {
            StandardError.write("skanc serve: error: cannot read \(range.path) back to \(purpose) it (\(reason()))")
            return nil
        }
        defer { close(descriptor) }
        var chunk = chunkBytes
        while true {
            let wanted = min(chunk, range.end - range.start)
            var bytes = [UInt8](repeating: 0, count: wanted)
            let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, wanted, off_t(range.start)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                StandardError.write("skanc serve: error: cannot read \(range.path) back to \(purpose) it (\(reason()))")
                return nil
            }
            // A slice that ends inside a line (not at the range's end) is cut after its last line break, or read
            // again larger when it holds none.
            guard range.start + count < range.end else { return Array(bytes[..<count]) }
            guard let lineBreak = bytes[..<count].lastIndex(of: 10) else {
                chunk *= 2
                continue
            }
            return Array(bytes[...lineBreak])
        }
    }
}
