import Foundation

/// A test server script run as a child process: it prints its port as one line, and stops when its
/// standard input closes. Nothing here depends on time: the test waits for the port line, and the server
/// lives exactly as long as the test holds it (or the test process).
struct LoopbackServer {
    struct NoPort: Error, CustomStringConvertible {
        let output: String
        var description: String { "the server printed no port (output: \(output.debugDescription))" }
    }

    let port: Int
    private let process: Process
    private let input: Pipe

    /// Starts `python3 script arguments…` and returns once it has printed its port.
    static func start(script: URL, arguments: [String]) async throws -> LoopbackServer {
        let (process, input, output) = (Process(), Pipe(), Pipe())
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path] + arguments
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let line = await firstLine(of: output.fileHandleForReading)
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
            throw NoPort(output: line)
        }
        return LoopbackServer(port: port, process: process, input: input)
    }

    /// Closes the server's standard input and waits for it to exit.
    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Reads up to the first newline (or the end) on a thread of its own, so that the blocking read never
    /// holds a thread of the cooperative pool that other tests run on.
    private static func firstLine(of handle: FileHandle) async -> String {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var bytes = Data()
                while !bytes.contains(UInt8(ascii: "\n")) {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    bytes.append(chunk)
                }
                continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
            }
        }
    }
}
