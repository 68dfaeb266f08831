import Foundation
import Testing

/// The generated goldens compile (through SIL, so that its diagnostics run too) without a single warning in Swift 6 mode, both as ordinary modules and in
/// a module whose default isolation is MainActor (the default of new app targets).
@Suite struct WarningFreeTests {
    static let goldens = GeneratedCodeTests.root.appendingPathComponent("Tests/GeneratedCode")

    @Test(arguments: ["Internal", "Package", "Public", "Platforms"], [false, true])
    func goldensCompileWithoutWarnings(level: String, mainActorByDefault: Bool) throws {
        let directory = Self.goldens.appendingPathComponent(level)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasSuffix(".swift")
        }.sorted()
        // Eight schemas at each access level (GoldenFileTests.schemas); the ad platforms' configurations, public.
        #expect(files.count == (level == "Platforms" ? 11 : 8))
        var arguments = ["-module-name", "Golden\(level)", "-package-name", "goldens"]
        if mainActorByDefault { arguments += ["-default-isolation", "MainActor"] }
        arguments += files.map { directory.appendingPathComponent($0).path }
        let (status, text) = try Swiftc.emitSIL(arguments)
        #expect(status == 0, "\(level): \(text)")
        #expect(text.isEmpty, "\(level): \(text)")
    }
}
