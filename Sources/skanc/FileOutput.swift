import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writing generated files: only when the content changes (so build systems see no change when there is
/// none), and atomically through a temporary file and a rename, so a failed run never leaves half a file.
enum FileOutput {
    struct WriteError: Error {
        var message: String
    }

    /// Writes `text` to `path` unless the file already holds exactly that; returns whether it wrote.
    @discardableResult
    static func writeIfChanged(_ text: String, to path: String) throws(WriteError) -> Bool {
        try writeIfChanged(data: Data(text.utf8), to: path)
    }

    /// Writes `data` to `path` unless the file already holds exactly that; returns whether it wrote.
    @discardableResult
    static func writeIfChanged(data: Data, to path: String) throws(WriteError) -> Bool {
        if let existing = FileManager.default.contents(atPath: path), existing == data { return false }
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw WriteError(message: "\(path): error: cannot write: the folder \(directory.path) does not exist")
        }
        let temporary = directory.appendingPathComponent(
            ".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        do {
            try data.write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw WriteError(message: "\(path): error: cannot write in \(directory.path); check its permissions")
        }
        // rename(2) replaces the destination in one step: readers see the old file or the new one.
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw WriteError(
                message: "\(path): error: cannot write the file (\(reason)); check the path and its permissions")
        }
        return true
    }
}
