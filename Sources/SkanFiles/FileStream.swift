import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file written piece by piece, for output too large to hold (`simulate --postbacks --truth` for a million
/// users), with `FileOutput`'s guarantees: a regular file is written beside its path and renamed over it only
/// when `finish` succeeds (a failed run leaves what was there), through its links, with its mode; a descriptor
/// the shell opened (`/dev/stdout`) or a device is written to where it stands.
package final class FileStream {
    private let path: String
    private let output: FileDescriptorOutput
    /// The run's standard output, whose failure its run reports (not this file's).
    private let standardOutput: FileDescriptorOutput
    /// The temporary file and the target it replaces, for a regular file.
    private let replacing: (temporary: (path: String, descriptor: Int32), target: String, mode: stat?)?
    /// A device opened here, closed at `finish`.
    private var opened: Int32?
    /// Bytes not yet written: written in pieces of 64 KiB, not a system call a line.
    private var buffer: [UInt8] = []

    /// Opens `path` for writing; nothing at `path` changes until `finish`. A path naming a descriptor writes to
    /// what `outputs` says it names (`/dev/stdout` is the run's standard output).
    package init(_ path: String, outputs: RunOutputs) throws(FileOutput.WriteError) {
        self.path = path
        self.standardOutput = outputs.standardOutput
        if let named = outputs.output(named: path) {
            output = named
            replacing = nil
            return
        }
        let target = FileOutput.followingLinks(path)
        var info = stat()
        let exists = stat(target, &info) == 0
        if exists, info.st_mode & S_IFMT == S_IFDIR {
            throw FileOutput.WriteError(path, "is a folder; name a file to write")
        }
        if exists, info.st_mode & S_IFMT != S_IFREG {
            // A device or pipe: written to, never replaced.
            let descriptor = open(target, O_WRONLY)
            guard descriptor >= 0 else { throw FileOutput.failure(path, "cannot open the file to write", errno) }
            output = FileDescriptorOutput(descriptor: descriptor)
            replacing = nil
            opened = descriptor
            return
        }
        if exists, info.st_mode & 0o222 == 0 || access(target, W_OK) != 0 {
            throw FileOutput.WriteError(path, "the file is read-only; make it writable or write elsewhere")
        }
        let temporary = try FileOutput.createTemporary(beside: target, mode: exists ? info : nil, reportedAs: path)
        output = FileDescriptorOutput(descriptor: temporary.descriptor)
        replacing = (temporary, target, exists ? info : nil)
    }

    package func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    private func flush() {
        output.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Puts the file in place; throws (and leaves what was at the path) when any write failed.
    package func finish() throws(FileOutput.WriteError) {
        flush()
        if let opened { close(opened) }
        if let replacing {
            try FileOutput.commit(
                replacing.temporary, over: replacing.target, mode: replacing.mode, written: output.failure,
                reportedAs: path)
        } else if let failure = output.failure, output !== standardOutput {
            throw FileOutput.failure(path, "cannot write", failure)
        }
    }
}
