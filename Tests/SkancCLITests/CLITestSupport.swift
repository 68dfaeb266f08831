import Foundation
import SkanCommands
import SkanTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a run of skanc printed and how it ended.
typealias CLIResult = ChildProcessResult

/// Runs skanc as a user or a script does and captures what it prints: in this process (`Skanc.run` on a
/// `CommandContext` of files of the run's own, as the executable runs it on the process's descriptors), or as a
/// child process where what is tested is the process itself.
enum CLI {
    static let packageRoot = Paths.packageRoot

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

    /// Runs `skanc` (or `executable`) with `prefix + arguments`. skanc itself, in the package root, with standard
    /// output captured, runs in this process (`inProcess`); anything else (another program, another folder,
    /// standard output to a device) as a child process (`process`).
    static func run(
        _ arguments: [String], stdin: String? = nil, executable: URL = executable, prefix: [String] = [],
        in directory: URL = packageRoot, stdoutPath: String? = nil
    ) throws -> CLIResult {
        if executable == Self.executable, prefix.isEmpty, stdoutPath == nil,
            directory.standardizedFileURL == packageRoot.standardizedFileURL, runsInPackageRoot
        {
            return try inProcess(arguments, stdin: stdin)
        }
        return try process(
            arguments, stdin: stdin, executable: executable, prefix: prefix, in: directory, stdoutPath: stdoutPath)
    }

    /// Runs the built binary as a child process: for what only a process shows (its exit status as the shell
    /// sees it, signals, pipes, devices, another working directory). With `stdoutPath`, standard output goes to
    /// that file (a device such as /dev/full, say) and `stdout` is empty.
    static func process(
        _ arguments: [String], stdin: String? = nil, executable: URL = executable, prefix: [String] = [],
        in directory: URL = packageRoot, stdoutPath: String? = nil
    ) throws -> CLIResult {
        try ChildProcess.run(executable, prefix + arguments, stdin: stdin, in: directory, stdoutPath: stdoutPath)
    }

    /// Whether commands run in this process: its working directory is the package root, against which the paths
    /// tests pass are relative, and `SKANC_TEST_PROCESSES` is not set (set, every run is a child process, to
    /// compare the two).
    static let runsInPackageRoot =
        ProcessInfo.processInfo.environment["SKANC_TEST_PROCESSES"] == nil
        && URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.resolvingSymlinksInPath()
            == packageRoot.standardizedFileURL.resolvingSymlinksInPath()

    /// Runs `skanc arguments` in this process: standard input, output and error are files of this run's own, as
    /// `process` gives a child, so runs side by side share nothing.
    static func inProcess(_ arguments: [String], stdin: String? = nil) throws -> CLIResult {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("skanc-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let inPath = scratch.appendingPathComponent("in").path
        let outPath = scratch.appendingPathComponent("out").path
        let errPath = scratch.appendingPathComponent("err").path
        _ = FileManager.default.createFile(atPath: inPath, contents: Data((stdin ?? "").utf8))
        let input = open(inPath, O_RDONLY)
        let output = open(outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let error = open(errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { for descriptor in [input, output, error] where descriptor >= 0 { close(descriptor) } }
        guard input >= 0, output >= 0, error >= 0 else { throw CocoaError(.fileWriteUnknown) }
        let status = Skanc.run(
            arguments, in: CommandContext(standardInput: input, standardOutput: output, standardError: error))
        return CLIResult(
            status: status.rawValue,
            stdout: String(decoding: try Data(contentsOf: URL(fileURLWithPath: outPath)), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: URL(fileURLWithPath: errPath)), as: UTF8.self))
    }
}
