import Foundation

/// Runs the toolchain's `swiftc` (on PATH) and returns its exit status and everything it printed.
enum Swiftc {
    static func executable() throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("swiftc")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "swiftc is not on PATH"])
    }

    /// `swiftc -typecheck -swift-version 6 -warnings-as-errors -parse-as-library` plus `arguments`.
    static func typecheck(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = try executable()
        process.arguments =
            ["-typecheck", "-swift-version", "6", "-warnings-as-errors", "-parse-as-library"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
