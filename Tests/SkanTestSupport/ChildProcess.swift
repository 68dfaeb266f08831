public import Foundation

/// What a child process printed and how it ended.
public struct ChildProcessResult: Sendable {
    /// The exit status.
    public var status: Int32
    /// Standard output (empty when it went to a file of the caller's).
    public var stdout: String
    /// Standard error.
    public var stderr: String

    /// A result of `status` that printed `stdout` and `stderr`: a child's, or a command's run in-process.
    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

/// Runs programs the way a user or a script does: skanc, swiftc, python3.
public enum ChildProcess {
    /// Runs `executable` with `arguments` in `directory`, feeding it `stdin`. Input and output go through
    /// temporary files, not pipes: no pipe can fill up and block the child, and a child that exits before it
    /// reads its input cannot kill this process with SIGPIPE. With `stdoutPath`, standard output goes to that
    /// file (a device such as /dev/full, say) and `stdout` is empty.
    public static func run(
        _ executable: URL, _ arguments: [String], stdin: String? = nil, in directory: URL = Paths.packageRoot,
        stdoutPath: String? = nil, environment: [String: String]? = nil
    ) throws -> ChildProcessResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if let environment { process.environment = environment }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("skanc-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("out")
        let errURL = scratch.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let inURL = scratch.appendingPathComponent("in")
        _ = FileManager.default.createFile(atPath: inURL.path, contents: Data((stdin ?? "").utf8))
        let out = try FileHandle(forWritingTo: stdoutPath.map { URL(fileURLWithPath: $0) } ?? outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let input = try FileHandle(forReadingFrom: inURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        process.waitUntilExit()
        try input.close()
        try out.close()
        try err.close()
        return ChildProcessResult(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// The program `name` on PATH.
    public static func onPath(_ name: String) throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "\(name) is not on PATH"])
    }
}
