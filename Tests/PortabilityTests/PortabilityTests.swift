import Foundation
import Testing

/// What no Linux build can see: code that would not compile on macOS or iOS. The package is read as
/// text: no platform module named at a call site or imported without `#if canImport`, no stored function
/// type with a typed error, and every Apple API of the runtime targets' Apple/ folders (SkanRuntime,
/// SkanTracking, SkanAppleAdsClient) behind an `#available` at least as new as the API, as the mirror of
/// Apple's declarations states it.
@Suite struct PortabilityTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The Swift files under `folder` (`Sources`, `Plugins` or a folder in them), read and blanked once for all
    /// the checks: each reading of the whole package took seconds.
    static func swiftFiles(under folder: String) throws -> [(name: String, source: SwiftSourceText)] {
        try packageFiles.get().filter { $0.name.hasPrefix(folder + "/") }
    }

    static let packageFiles = Result { try read(under: "Sources") + read(under: "Plugins") }

    private static func read(under folder: String) throws -> [(name: String, source: SwiftSourceText)] {
        let directory = root.appendingPathComponent(folder)
        let enumerator = try #require(FileManager.default.enumerator(atPath: directory.path))
        return try enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().map { path in
            (
                folder + "/" + path,
                SwiftSourceText(try String(contentsOf: directory.appendingPathComponent(path), encoding: .utf8))
            )
        }
    }

    static func mirror() throws -> [AppleAvailabilityCheck.API] {
        let url = root.appendingPathComponent("Tests/AppleAPIMirrorTests/AppleFrameworksMirror.swift")
        return AppleAvailabilityCheck.apis(inMirror: SwiftSourceText(try String(contentsOf: url, encoding: .utf8)))
    }

    /// The lowest iOS version Package.swift declares.
    static func iOSFloor() throws -> AppleAvailabilityCheck.Version {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let match = try #require(manifest.firstMatch(of: #/\.iOS\(\.v([0-9_]+)\)/#))
        return AppleAvailabilityCheck.Version(match.1.replacingOccurrences(of: "_", with: "."))
    }

    // MARK: The package

    @Test func sourcesAndPluginsNameNoPlatformModuleOutsideCanImport() throws {
        let files = try Self.swiftFiles(under: "Sources") + Self.swiftFiles(under: "Plugins")
        #expect(files.count > 50)
        let problems = files.flatMap { PlatformModuleCheck.problems(in: $0.source, name: $0.name) }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// The modules each pure target may import: no Foundation, no C library, so the core and the compiler run
    /// wherever Swift does (and the plugin's tool builds quickly).
    static let pureTargets: [(target: String, allowed: Set<String>)] = [
        ("SkanCore", []), ("SkanSchema", ["SkanCore"]), ("SkanCompiler", ["SkanCore", "SkanSchema"]),
        ("SkanSchemaTools", ["SkanCore", "SkanSchema", "SkanCompiler", "SkanSchemaArtifact"]),
        ("SkanCrypto", []), ("SkanPlatforms", ["SkanCore", "SkanSchema", "SkanCompiler"]), ("SkanHTTP", []),
        // The artifact is read on devices as well: bytes in, a model out, and no compiler.
        ("SkanSchemaArtifact", ["SkanCore", "SkanSchema", "SkanCrypto"]),
        // Reports are arithmetic and text over the reader's counts: no I/O of their own.
        ("SkanReports", ["SkanCore", "SkanSchema", "SkanSchemaTools", "SkanPostbacks"]),
    ]

    @Test(arguments: pureTargets.map(\.target))
    func pureTargetsImportOnlyTheirOwnModules(_ target: String) throws {
        let allowed = Self.pureTargets.first { $0.target == target }!.allowed
        let files = try Self.swiftFiles(under: "Sources/\(target)")
        #expect(files.count >= 4)
        let imports = files.flatMap { file in
            file.source.text.split(separator: "\n").compactMap { line -> String? in
                let words = line.split(separator: " ").filter { !["public", "package", "internal"].contains($0) }
                guard words.first == "import", words.count == 2, !allowed.contains(String(words[1])) else { return nil }
                return "\(file.name): \(line)"
            }
        }
        #expect(imports.isEmpty, "\(imports.joined(separator: "\n"))")
    }

    @Test func everyAppleCallIsBehindAnAvailabilityCheckAsNewAsTheAPI() throws {
        let apis = try Self.mirror()
        let files = try RuntimeProductsTests.runtimeTargets.flatMap {
            try Self.swiftFiles(under: "Sources/\($0)/Apple")
        }
        #expect(files.count == RuntimeProductsTests.runtimeTargets.count)
        let floor = try Self.iOSFloor()
        #expect(!files.isEmpty)
        let problems = files.flatMap {
            AppleAvailabilityCheck.problems(in: $0.source, name: $0.name, apis: apis, floor: floor)
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func theMirrorStatesApplesAvailability() throws {
        let apis = try Self.mirror()
        func introduced(_ path: String) -> [String] { apis.filter { $0.path == path }.map(\.introduced.description) }
        let floor = try Self.iOSFloor()
        #expect(floor == .init("13"))
        #expect(introduced("SKAdNetwork") == ["11.3"])
        #expect(introduced("SKAdNetwork.updateConversionValue") == ["14.0"])
        #expect(introduced("SKAdNetwork.updatePostbackConversionValue") == ["15.4", "16.1", "16.1"])
        #expect(introduced("SKAdNetwork.CoarseConversionValue") == ["16.1"])
        #expect(introduced("CoarseConversionValue") == ["17.4"])
        #expect(introduced("Postback.updateConversionValue") == ["17.4", "17.4", "18.0"])
        #expect(introduced("PostbackUpdate") == ["18.0"])
        #expect(introduced("PostbackUpdate.ConversionType") == ["18.0"])
        #expect(introduced("PostbackUpdate.init") == ["18.0", "18.4"])
        #expect(introduced("PostbackUpdate.conversionTag") == ["18.4"])
        // Apple's completion handlers have defaults; AdAttributionKit's lockPostback has none.
        let lockWindow = try #require(
            apis.first { $0.path == "SKAdNetwork.updatePostbackConversionValue" && $0.parameters?.count == 4 })
        #expect(lockWindow.parameters!.map(\.label) == ["_", "coarseValue", "lockWindow", "completionHandler"])
        #expect(lockWindow.parameters!.map(\.hasDefault) == [false, false, false, true])
        let aak = try #require(apis.first { $0.path == "Postback.updateConversionValue" && $0.parameters?.count == 3 })
        #expect(aak.parameters!.map(\.hasDefault) == [false, false, false])
    }

    @Test func everyMirroredDeclarationCitesApplesPage() throws {
        let url = Self.root.appendingPathComponent("Tests/AppleAPIMirrorTests/AppleFrameworksMirror.swift")
        let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
        var uncited: [String] = []
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard
                trimmed.range(
                    of: #"^(open |public )(static |class )*(func|init|struct|enum|class|let|var)\b"#,
                    options: .regularExpression) != nil,
                !trimmed.contains("static let high"), !trimmed.contains("static let medium"),
                !trimmed.contains("static let low"),
                !trimmed.contains("var description")
            else { continue }
            // The comment block (and attributes) right above the declaration.
            let above = lines[..<index].reversed().prefix {
                $0.trimmingCharacters(in: .whitespaces).hasPrefix("//")
                    || $0.trimmingCharacters(in: .whitespaces).hasPrefix("@")
            }
            if !above.contains(where: { $0.contains("https://developer.apple.com/") }) {
                uncited.append("\(index + 1): \(trimmed)")
            }
        }
        #expect(uncited.isEmpty, "\(uncited.joined(separator: "\n"))")
    }

    // MARK: The checks themselves fail where they should

    @Test func aPlantedGlibcCallIsCaught() {
        let planted = """
            #if canImport(Glibc)
            import Glibc
            #endif
            func send(_ descriptor: Int32) { _ = Glibc.write(descriptor, nil, 0) }
            """
        let problems = PlatformModuleCheck.problems(in: SwiftSourceText(planted), name: "Planted.swift")
        #expect(
            problems == [
                "Planted.swift:4: 'Glibc.' names a platform module at a call site; Glibc does not exist on the other platforms"
            ])
        // Mentioned in a comment or a string it is harmless.
        #expect(
            PlatformModuleCheck.problems(in: SwiftSourceText("// Glibc.write\nlet s = \"Darwin.read\""), name: "x")
                .isEmpty)
    }

    @Test func unguardedPlatformImportsAndTypedThrowsStorageAreCaught() {
        let planted = """
            import Darwin
            #if canImport(StoreKit)
            import StoreKit
            #else
            import UIKit
            #endif
            struct Command { var run: (Int) throws(MyError) -> Int }
            """
        #expect(
            PlatformModuleCheck.problems(in: SwiftSourceText(planted), name: "P.swift") == [
                "P.swift:1: 'import Darwin' outside '#if canImport(Darwin)'",
                "P.swift:5: 'import UIKit' outside '#if canImport(UIKit)'",
                "P.swift:7: a stored function type with a typed 'throws(…)' needs macOS 15 / iOS 18 at run time; store an untyped 'throws'",
            ])
    }

    @Test func aPlantedAppleCallOutsideAvailableIsCaught() throws {
        let apis = try Self.mirror()
        let planted = """
            func send(_ value: Int) async throws {
                if #available(iOS 16.1, *) {
                    SKAdNetwork.updatePostbackConversionValue(value) { _ in }
                    try await Postback.updateConversionValue(value, lockPostback: false)
                } else {
                    SKAdNetwork.updatePostbackConversionValue(value, coarseValue: .low, lockWindow: false)
                }
                let update = PostbackUpdate(fineConversionValue: value, lockPostback: false, conversionTag: "t")
            }
            @available(iOS 17.4, *)
            var coarse: CoarseConversionValue { .low }
            """
        let problems = AppleAvailabilityCheck.problems(
            in: SwiftSourceText(planted), name: "Planted.swift", apis: apis, floor: .init("13.0"))
        #expect(
            problems == [
                "Planted.swift:4: Postback.updateConversionValue(_:lockPostback:) needs iOS 17.4 but is reachable on iOS 16.1; put it inside 'if #available(iOS 17.4, *)'",
                "Planted.swift:6: SKAdNetwork.updatePostbackConversionValue(_:coarseValue:lockWindow:) needs iOS 16.1 but is reachable on any iOS version; put it inside 'if #available(iOS 16.1, *)'",
                "Planted.swift:8: PostbackUpdate.init(fineConversionValue:lockPostback:conversionTag:) needs iOS 18.4 but is reachable on any iOS version; put it inside 'if #available(iOS 18.4, *)'",
            ])
    }
}
