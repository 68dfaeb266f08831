import Foundation
import SkanLanguageServer

extension LSPCommand {
    /// What `skanc.against` names for the document at `uri`: a `.skan` file (absolute, or relative to the
    /// document's folder), or else a git ref, whose version of the document is read with `git show REF:./NAME`
    /// in the document's folder. A ref without the document (a schema new since the release) is no baseline; a
    /// setting that is neither a file nor a ref says so.
    static func baseline(documentURI uri: String, against: String) -> LanguageServer.Baseline {
        guard let url = URL(string: uri), url.isFileURL else { return .none }
        let folder = url.deletingLastPathComponent().path
        let file = against.hasPrefix("/") ? against : folder + "/" + against
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue {
            guard let data = FileManager.default.contents(atPath: file), data.count <= 1 << 20 else {
                return .unavailable("\(file) cannot be read, or is over 1 MiB")
            }
            return .schema(text: String(decoding: data, as: UTF8.self), name: file)
        }
        guard git(["rev-parse", "--verify", "--quiet", against + "^{commit}"], in: folder) != nil else {
            return .unavailable("neither a file (\(file)) nor a git ref in \(folder)")
        }
        let name = url.lastPathComponent
        guard let text = git(["show", "\(against):./\(name)"], in: folder) else { return .none }
        return .schema(text: text, name: "\(against):\(name)")
    }

    /// Standard output of `git ARGUMENTS` run in `folder`; nil when it fails (its error output is not needed).
    private static func git(_ arguments: [String], in folder: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", folder] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
