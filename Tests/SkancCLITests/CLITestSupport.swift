import Foundation
import Testing

/// Runs the built `skanc` binary, the way a user or a script does, and captures what it prints.
struct CLIResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum CLI {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `skanc` built next to this test bundle.
    static let executable: URL = {
        var directory = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("skanc")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return packageRoot.appendingPathComponent(".build/debug/skanc")
    }()

    /// Runs `executable` (skanc unless said otherwise) with `prefix + arguments`.
    /// With `stdoutPath`, standard output goes to that file (a device such as /dev/full, say) and `stdout` is
    /// empty.
    static func run(
        _ arguments: [String], stdin: String? = nil, executable: URL = executable, prefix: [String] = [],
        in directory: URL = packageRoot, stdoutPath: String? = nil
    ) throws -> CLIResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = prefix + arguments
        process.currentDirectoryURL = directory
        // Output goes to temporary files: no pipe can fill up and block the child.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("skanc-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("out")
        let errURL = scratch.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: stdoutPath.map { URL(fileURLWithPath: $0) } ?? outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        try out.close()
        try err.close()
        let outData = try Data(contentsOf: outURL)
        let errData = try Data(contentsOf: errURL)
        return CLIResult(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}
