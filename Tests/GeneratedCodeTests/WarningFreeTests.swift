import Foundation
import Testing

/// The generated goldens compile without a single warning in Swift 6 mode, both as ordinary modules and in
/// a module whose default isolation is MainActor (the default of new app targets).
@Suite struct WarningFreeTests {
    static let goldens = GeneratedCodeTests.root.appendingPathComponent("Tests/GeneratedCode")

    /// `swiftc` from the toolchain running the tests: on PATH, or beside `swift` in the toolchain.
    static func swiftc() throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("swiftc")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "swiftc is not on PATH"])
    }

    @Test(arguments: ["Internal", "Package", "Public"], [false, true])
    func goldensCompileWithoutWarnings(level: String, mainActorByDefault: Bool) throws {
        let directory = Self.goldens.appendingPathComponent(level)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".swift") }.sorted()
        #expect(files.count == 4)
        var arguments = ["-typecheck", "-swift-version", "6", "-warnings-as-errors", "-parse-as-library",
                         "-module-name", "Golden\(level)", "-package-name", "goldens"]
        if mainActorByDefault { arguments += ["-default-isolation", "MainActor"] }
        arguments += files.map { directory.appendingPathComponent($0).path }
        let process = Process()
        process.executableURL = try Self.swiftc()
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(level): \(text)")
        #expect(text.isEmpty, "\(level): \(text)")
    }
}
