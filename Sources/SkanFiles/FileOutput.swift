package import Foundation
package import SkanCore

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writing files the command line was told to write (`generate -o`, `fmt --in-place`, `plist add-networks`, the build plugin's tool):
/// only when the content changes (so build systems see no change when there is none), and so that what is at
/// the path keeps being what it was:
/// - a regular file is replaced atomically, through a temporary file created exclusively under an
///   unpredictable name beside it and renamed over it, with the file's mode (and, where allowed, owner) kept;
///   a failed run never leaves half a file;
/// - a symbolic link is written through: its target changes, the link stays;
/// - a file with several hard links is rewritten in place, so every link sees the new content;
/// - a device, pipe or socket (`-o /dev/null`, `/dev/stdout`) is written to, never replaced;
/// - a read-only file (no write permission for anyone) is refused, as is a folder.
package enum FileOutput {
    /// A file that cannot be written: one diagnostic of the file, under the path the user gave.
    package struct WriteError: Error {
        package var path: String
        package var diagnostic: Diagnostic

        package init(_ path: String, _ message: String) {
            self.path = path
            diagnostic = .error(.fileUnwritable, message, at: nil)
        }
    }

    /// Writes `text` to `path` unless the file already holds exactly that; returns whether it wrote.
    @discardableResult
    package static func writeIfChanged(_ text: String, to path: String) throws(WriteError) -> Bool {
        try writeIfChanged(data: Data(text.utf8), to: path)
    }

    /// Writes `bytes` to `path` unless the file already holds exactly that; returns whether it wrote.
    @discardableResult
    package static func writeIfChanged(bytes: [UInt8], to path: String) throws(WriteError) -> Bool {
        try writeIfChanged(data: Data(bytes), to: path)
    }

    /// Writes `data` to `path` unless the file already holds exactly that; returns whether it wrote.
    @discardableResult
    package static func writeIfChanged(data: Data, to path: String) throws(WriteError) -> Bool {
        let target = followingLinks(path)
        var info = stat()
        guard stat(target, &info) == 0 else {
            guard errno == ENOENT else { throw failure(path, "cannot read what is there", errno) }
            try replace(target, with: data, mode: nil, reportedAs: path)
            return true
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            if let existing = FileManager.default.contents(atPath: target), existing == data { return false }
            guard info.st_mode & 0o222 != 0, access(target, W_OK) == 0 else {
                throw WriteError(path, "the file is read-only; make it writable or write elsewhere")
            }
            if info.st_nlink > 1 {
                try writeInPlace(target, data, reportedAs: path)
            } else {
                try replace(target, with: data, mode: info, reportedAs: path)
            }
        case S_IFDIR:
            throw WriteError(path, "is a folder; name a file to write")
        default:
            try writeInPlace(target, data, reportedAs: path)
        }
        return true
    }

    /// The descriptor `path` names when it names one this process has open (`/dev/stdout`, `/dev/stderr`,
    /// `/dev/fd/N`, `/proc/self/fd/N`): what is written there goes to that descriptor, whatever it is open on
    /// (a pipe, a terminal, a file opened for appending), rather than to what its link points at.
    package static func openDescriptor(named path: String) -> Int32? {
        switch path {
        case "/dev/stdout": return STDOUT_FILENO
        case "/dev/stderr": return STDERR_FILENO
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                guard let number = Int32(path.dropFirst(prefix.count)), number >= 0 else { return nil }
                return fcntl(number, F_GETFD) == -1 ? nil : number
            }
            return nil
        }
    }

    /// Whether writing `output` would replace `input`: `output` is an existing regular file, and the same file
    /// (device and inode, following links) as `input`, or as `standardInput` for `-`. A device or pipe is written
    /// to, never replaced, so naming one as both is no loss.
    package static func replaces(_ output: String, input: String, standardInput: Int32) -> Bool {
        var (written, read) = (stat(), stat())
        guard stat(output, &written) == 0, written.st_mode & S_IFMT == S_IFREG else { return false }
        let found = input == "-" ? fstat(standardInput, &read) : stat(input, &read)
        return found == 0 && written.st_dev == read.st_dev && written.st_ino == read.st_ino
    }

    /// The file a path names once its symbolic links are followed; a dangling link names its target.
    static func followingLinks(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else {
                return current
            }
            current =
                destination.hasPrefix("/")
                ? destination
                : URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent(destination).path
        }
        return current
    }

    /// A new file beside `target`, renamed over it: readers see the old file or the new one, never a part.
    private static func replace(
        _ target: String, with data: Data, mode existing: stat?, reportedAs path: String
    ) throws(WriteError) {
        let temporary = try createTemporary(beside: target, mode: existing, reportedAs: path)
        let failed = writeAll(temporary.descriptor, data)
        try commit(temporary, over: target, mode: existing, written: failed, reportedAs: path)
    }

    /// A file beside `target` under an unpredictable name, created exclusively, for `commit` to rename over it.
    static func createTemporary(
        beside target: String, mode existing: stat?, reportedAs path: String
    ) throws(WriteError) -> (path: String, descriptor: Int32) {
        let url = URL(fileURLWithPath: target)
        let directory = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw WriteError(path, "cannot write: the folder \(directory) does not exist")
        }
        var random = SystemRandomNumberGenerator()
        let suffix = String(random.next() as UInt64, radix: 16)
        let temporary = directory + "/." + url.lastPathComponent + "." + suffix + ".tmp"
        // Exclusive and not through a link: a file planted at that name makes this fail, never write elsewhere.
        let descriptor = open(
            temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, existing.map { $0.st_mode & 0o7777 } ?? 0o666)
        guard descriptor >= 0 else { throw failure(path, "cannot write in \(directory)", errno) }
        return (temporary, descriptor)
    }

    /// Closes the temporary file and renames it over `target`, with the mode and owner `target` had; on any
    /// failure (`written`: the error of a failed write) removes it instead.
    static func commit(
        _ temporary: (path: String, descriptor: Int32), over target: String, mode existing: stat?,
        written: Int32?, reportedAs path: String
    ) throws(WriteError) {
        var error = written ?? 0
        var ok = written == nil
        if ok, let existing {
            // The mode exactly as it was (open applied the umask), and the owner where the user may set it.
            _ = fchmod(temporary.descriptor, existing.st_mode & 0o7777)
            _ = fchown(temporary.descriptor, existing.st_uid, existing.st_gid)
        }
        if close(temporary.descriptor) != 0, ok { (ok, error) = (false, errno) }
        guard ok, rename(temporary.path, target) == 0 else {
            if ok { error = errno }
            unlink(temporary.path)
            throw failure(path, "cannot write the file", error)
        }
    }

    /// The file itself, truncated and written: for devices, pipes and files with several links.
    private static func writeInPlace(_ target: String, _ data: Data, reportedAs path: String) throws(WriteError) {
        let descriptor = open(target, O_WRONLY | O_TRUNC)
        guard descriptor >= 0 else { throw failure(path, "cannot open the file to write", errno) }
        let failed = writeAll(descriptor, data)
        if close(descriptor) != 0 || failed != nil { throw failure(path, "cannot write the file", failed ?? errno) }
    }

    /// Writes all of `data` through the one descriptor writer; the error of a failed write, or nil.
    private static func writeAll(_ descriptor: Int32, _ data: Data) -> Int32? {
        let output = FileDescriptorOutput(descriptor: descriptor)
        output.write(data)
        return output.failure
    }

    package static func failure(_ path: String, _ what: String, _ code: Int32) -> WriteError {
        WriteError(path, "\(what) (\(String(cString: strerror(code)))); check the path and its permissions")
    }
}
