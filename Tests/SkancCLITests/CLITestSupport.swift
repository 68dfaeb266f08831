import Foundation
import SkanTestSupport

/// Runs the built `skanc` binary, the way a user or a script does, and captures what it prints.
typealias CLIResult = ChildProcessResult

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

    /// Runs `executable` (skanc unless said otherwise) with `prefix + arguments`.
    /// With `stdoutPath`, standard output goes to that file (a device such as /dev/full, say) and `stdout` is
    /// empty.
    static func run(
        _ arguments: [String], stdin: String? = nil, executable: URL = executable, prefix: [String] = [],
        in directory: URL = packageRoot, stdoutPath: String? = nil
    ) throws -> CLIResult {
        try ChildProcess.run(executable, prefix + arguments, stdin: stdin, in: directory, stdoutPath: stdoutPath)
    }
}
