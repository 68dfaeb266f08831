import Foundation
import SkanTestSupport
import Testing

/// The public API of each product apps link, as the compiler sees it (`swift-symbolgraph-extract`), against the
/// digest checked in under API/: a change to what an app can name fails here until it is accepted on purpose
/// (`UPDATE_GOLDENS=1 swift test`), so it shows in review. Built on Linux, the digest leaves out what only Apple
/// platforms compile (`#if canImport(StoreKit)` and the like); the mirror tests hold that part.
@Suite struct APIDigestTests {
    /// The folder the build put the modules in, next to this test bundle.
    static let modules: URL? = {
        var directory = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("Modules")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("SkanRuntime.swiftmodule").path)
            {
                return candidate
            }
            directory.deleteLastPathComponent()
        }
        return nil
    }()

    /// One line per public declaration: its path and its declaration as written, sorted; a module's extensions of
    /// another module's types under that module's name.
    static func digest(of module: String) throws -> String {
        let modules = try #require(Self.modules, "no built modules next to the test bundle")
        let output = try TemporaryDirectory()
        #if arch(arm64)
        let triple = "aarch64-unknown-linux-gnu"
        #else
        let triple = "x86_64-unknown-linux-gnu"
        #endif
        let run = try ChildProcess.run(
            try ChildProcess.onPath("swift-symbolgraph-extract"),
            [
                "-module-name", module, "-I", modules.path, "-target", triple, "-minimum-access-level", "public",
                "-output-dir", output.url.path,
            ])
        try #require(run.status == 0, "\(run.stderr)")
        var lines: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: output.url.path).sorted() {
            let data = try Data(contentsOf: output.url.appendingPathComponent(file))
            let graph = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let extended = file.split(separator: "@").dropFirst().first.map {
                "extension of \($0.split(separator: ".")[0]): "
            }
            for symbol in graph["symbols"] as? [[String: Any]] ?? [] {
                let path = (symbol["pathComponents"] as? [String] ?? []).joined(separator: ".")
                let fragments = symbol["declarationFragments"] as? [[String: Any]] ?? []
                let declaration = fragments.compactMap { $0["spelling"] as? String }.joined()
                lines.append((extended ?? "") + path + ": " + declaration)
            }
        }
        return "# The public API of \(module) as built on Linux, one declaration a line (APIDigestTests).\n"
            + Set(lines).sorted().joined(separator: "\n") + "\n"
    }

    /// The app products, and the vocabulary they re-export.
    @Test(arguments: RuntimeProductsTests.runtimeTargets + ["SkanVocabulary"])
    func thePublicAPIIsTheDigest(_ module: String) throws {
        try expectGolden(try Self.digest(of: module), at: "API/\(module).txt")
    }
}

/// What an app that links `SkanRuntime` alone can name: the runtime and the shared vocabulary (windows, coarse
/// values), none of the tools' declarations. A client file is type-checked against the built modules as a client
/// package's target would be, once naming only what it may, then once for each tool-side name it must not see.
@Suite struct AppVocabularyTests {
    static func typecheck(_ source: String) throws -> ChildProcessResult {
        let modules = try #require(APIDigestTests.modules, "no built modules next to the test bundle")
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("Client.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        return try ChildProcess.run(
            try ChildProcess.onPath("swiftc"),
            ["-typecheck", "-swift-version", "6", "-parse-as-library", "-I", modules.path, file.path])
    }

    @Test func anAppSeesTheRuntimeAndTheVocabularyOnly() throws {
        let allowed = try Self.typecheck(
            """
            import SkanRuntime
            func names() {
                let window: ConversionWindow = .first
                let coarse: CoarseValue = .high
                let perWindow = PerWindow(repeating: window)
                _ = (coarse, perWindow, TrackingAuthorizationStatus.authorized, ConversionValueUpdate.self)
            }
            """)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        for name in [
            "MinorUnitSum", "CurrencyMinorUnits", "DiagnosticFormatter", "Diagnostic", "SourceLocation", "AppStoreID",
        ] {
            let refused = try Self.typecheck("import SkanRuntime\nfunc name() { _ = \(name).self }\n")
            #expect(refused.status != 0 && refused.stderr.contains("cannot find '\(name)' in scope"), "\(name)")
        }
    }
}
