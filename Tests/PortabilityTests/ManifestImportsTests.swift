import Foundation
import Testing

/// The imports of Sources/ tell the truth about Package.swift: each library module a target imports is a
/// dependency it declares (SwiftPM lets a module see any module built before it, so a missing one still builds
/// here, and breaks elsewhere), and each dependency it declares is imported somewhere in it.
@Suite struct ManifestImportsTests {
    /// Each target of Package.swift with its dependencies on the package's own targets, read from the manifest's
    /// text (`.target(name: "X", dependencies: [...]` and `.executableTarget(...)`).
    static func manifestTargets() throws -> [String: Set<String>] {
        let manifest = try String(
            contentsOf: PortabilityTests.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        var targets: [String: Set<String>] = [:]
        for match in manifest.matches(of: #/\.(?:executableTarget|target)\(\s*name: "([\w-]+)"(?<rest>[^)]*)/#) {
            let rest = String(match.output.rest)
            var dependencies = Set<String>()
            if let list = rest.firstMatch(of: #/dependencies: \[([^\]]*)\]/#) {
                for name in String(list.1).matches(of: #/"([\w-]+)"/#) { dependencies.insert(String(name.1)) }
            }
            targets[String(match.1)] = dependencies
        }
        return targets
    }

    /// The package's modules a target's files import (`import`, `public import`, `package import`).
    static func imports(of target: String, modules: Set<String>) throws -> Set<String> {
        var found = Set<String>()
        for file in try PortabilityTests.swiftFiles(under: "Sources/\(target)") {
            for line in file.source.text.split(separator: "\n") {
                let words = line.split(separator: " ").filter {
                    !["public", "package", "internal", "@_exported"].contains($0)
                }
                if words.count == 2, words[0] == "import", modules.contains(String(words[1])) {
                    found.insert(String(words[1]))
                }
            }
        }
        return found
    }

    static let sourceTargets: [String] = {
        let sources = PortabilityTests.root.appendingPathComponent("Sources")
        return ((try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []).sorted()
    }()

    @Test func everySourceFolderIsATargetOfTheManifest() throws {
        let targets = try Self.manifestTargets()
        #expect(Self.sourceTargets.count >= 9)
        for folder in Self.sourceTargets {
            #expect(targets[folder] != nil, "Sources/\(folder) is no target of Package.swift")
        }
    }

    @Test(arguments: sourceTargets)
    func importsAndDeclaredDependenciesAgree(_ target: String) throws {
        let targets = try Self.manifestTargets()
        let declared = try #require(targets[target])
        // A target's own name: the Apple files of SkanRuntime import it when they are compiled against the mirror.
        let imported = try Self.imports(of: target, modules: Set(targets.keys).subtracting([target]))
        #expect(
            imported.subtracting(declared).isEmpty,
            "Sources/\(target) imports \(imported.subtracting(declared).sorted()) without declaring them in Package.swift"
        )
        #expect(
            declared.subtracting(imported).isEmpty,
            "Package.swift gives \(target) dependencies it never imports: \(declared.subtracting(imported).sorted())")
    }
}
