import Foundation
import Testing

/// What an app links from this package, and what the App Store asks of it: each runtime product links only its
/// own frameworks, ships a privacy manifest that names what its code does, and compiles into a framework that
/// app extensions link.
@Suite struct RuntimeProductsTests {
    /// The targets apps link, each a product of its own, with the Apple frameworks each may import.
    static let runtimeTargets = ["SkanRuntime", "SkanTracking", "SkanAppleAdsClient", "SkanRemoteSchema"]
    static let appleFrameworks: [String: Set<String>] = [
        "SkanRuntime": ["StoreKit", "AdAttributionKit"],
        // Manifests verified by the system's own cryptography.
        "SkanRemoteSchema": ["CryptoKit"],
        "SkanTracking": ["AppTrackingTransparency", "AdSupport", "UIKit"],
        "SkanAppleAdsClient": ["AdServices"],
    ]
    static let allAppleFrameworks = appleFrameworks.values.reduce(Set<String>()) { $0.union($1) }

    @Test(arguments: runtimeTargets)
    func eachProductImportsOnlyItsOwnAppleFrameworks(_ target: String) throws {
        let allowed = try #require(Self.appleFrameworks[target])
        var imported = Set<String>()
        for file in try PortabilityTests.swiftFiles(under: "Sources/\(target)") {
            for line in file.source.text.split(separator: "\n") {
                let words = line.split(separator: " ").filter { !["public", "package", "internal"].contains($0) }
                if words.count == 2, words[0] == "import", Self.allAppleFrameworks.contains(String(words[1])) {
                    imported.insert(String(words[1]))
                }
            }
        }
        #expect(imported.subtracting(allowed).isEmpty, "\(target) imports \(imported.subtracting(allowed).sorted())")
        #expect(!imported.isEmpty)
        if target == "SkanRuntime" {
            #expect(imported.isDisjoint(with: ["AppTrackingTransparency", "AdSupport", "AdServices", "UIKit"]))
        }
    }

    @Test(arguments: runtimeTargets)
    func eachProductShipsAPrivacyManifestNamingWhatItsCodeDoes(_ target: String) throws {
        let manifest = try String(
            contentsOf: PortabilityTests.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declaration = try #require(
            manifest.firstMatch(of: try Regex(#"\.target\(\s*name: "\#(target)".*?swiftSettings"#).dotMatchesNewlines())
                .map { String($0.0) })
        #expect(declaration.contains(#"resources: [.process("PrivacyInfo.xcprivacy")]"#))
        #expect(manifest.contains(#".library(name: "\#(target)", targets: ["\#(target)"])"#))

        let url = PortabilityTests.root.appendingPathComponent("Sources/\(target)/PrivacyInfo.xcprivacy")
        let plist = try #require(
            try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil) as? [String: Any])
        #expect(plist["NSPrivacyTracking"] as? Bool == false)
        #expect((plist["NSPrivacyTrackingDomains"] as? [Any])?.isEmpty == true)
        #expect((plist["NSPrivacyCollectedDataTypes"] as? [Any])?.isEmpty == true)
        let accessed = try #require(plist["NSPrivacyAccessedAPITypes"] as? [[String: Any]])
        let reasons = Dictionary(
            accessed.map { ($0["NSPrivacyAccessedAPIType"] as? String ?? "", $0["NSPrivacyAccessedAPITypeReasons"]) },
            uniquingKeysWith: { first, _ in first })
        // A required-reason API the code uses is declared with its reason, and none it does not use is.
        let code = try PortabilityTests.swiftFiles(under: "Sources/\(target)").map { String($0.source.code) }
            .joined()
        let usesDefaults = code.contains("UserDefaults")
        #expect((reasons["NSPrivacyAccessedAPICategoryUserDefaults"] as? [String]) == (usesDefaults ? ["CA92.1"] : nil))
        #expect(reasons.count == (usesDefaults ? 1 : 0))
        for api in ["FileTimestamp", "SystemBootTime", "DiskSpace", "ActiveKeyboards"] {
            #expect(!code.contains(api == "SystemBootTime" ? "systemUptime" : "\(api)Attribute"), "\(target): \(api)")
        }
    }

    /// `UIApplication.shared` is unavailable in app extensions; whatever uses it, and whatever uses that, is marked
    /// `@available(iOSApplicationExtension, unavailable)`, so the package builds as a framework extensions link.
    @Test func whatAppExtensionsCannotUseIsMarkedSo() throws {
        let files = try Self.runtimeTargets.flatMap { try PortabilityTests.swiftFiles(under: "Sources/\($0)") }
        let problems = ExtensionAvailabilityCheck.problems(in: files)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        #expect(ExtensionAvailabilityCheck.marked(in: files).contains("SystemAppActivity"))
    }

    @Test func aPlantedUseInAnExtensionAvailableDeclarationIsCaught() {
        let planted = SwiftSourceText(
            """
            @available(iOSApplicationExtension, unavailable)
            struct Activity {
                func state() -> Int { UIApplication.shared.applicationState.rawValue }
            }
            func defaultActivity() -> Activity { Activity() }
            func state() -> Int { UIApplication.shared.applicationState.rawValue }
            """)
        #expect(
            ExtensionAvailabilityCheck.problems(in: [("P.swift", planted)]) == [
                "P.swift:5: 'Activity' is unavailable in app extensions; mark the declaration using it @available(iOSApplicationExtension, unavailable)",
                "P.swift:6: 'UIApplication.shared' is unavailable in app extensions; mark the declaration using it @available(iOSApplicationExtension, unavailable)",
            ])
    }
}

/// Finds uses of what app extensions cannot use outside declarations marked unavailable there. A declaration is
/// marked when the attribute stands on the lines right above it; its body runs to its closing brace.
enum ExtensionAvailabilityCheck {
    static let attribute = "@available(iOSApplicationExtension, unavailable)"

    /// The names of the declarations marked in `files`. Initializers are left out: they are called through their
    /// type's name, which text cannot tell from the type's other uses.
    static func marked(in files: [(name: String, source: SwiftSourceText)]) -> Set<String> {
        Set(files.flatMap { declarations(in: $0.source).filter { $0.marked && $0.name != "init" }.map(\.name) })
    }

    static func problems(in files: [(name: String, source: SwiftSourceText)]) -> [String] {
        let names = marked(in: files)
        var problems: [String] = []
        for file in files {
            let lines = String(file.source.code).components(separatedBy: "\n")
            let covered = declarations(in: file.source).filter(\.marked).map(\.lines)
            for (index, line) in lines.enumerated() where !covered.contains(where: { $0.contains(index) }) {
                for name in ["UIApplication.shared"] + names.sorted() where uses(line, name) {
                    problems.append(
                        "\(file.name):\(index + 1): '\(name)' is unavailable in app extensions; mark the declaration using it \(attribute)"
                    )
                }
            }
        }
        return problems
    }

    /// Whether `line` names `name` as a whole word, anywhere.
    static func uses(_ line: String, _ name: String) -> Bool {
        func isWordCharacter(_ character: Character) -> Bool {
            character.isLetter || character.isNumber || character == "_"
        }
        var searchStart = line.startIndex
        while let range = line.range(of: name, range: searchStart..<line.endIndex) {
            let before: Character =
                range.lowerBound == line.startIndex ? " " : line[line.index(before: range.lowerBound)]
            let after: Character = range.upperBound == line.endIndex ? " " : line[range.upperBound]
            if !isWordCharacter(before) && !isWordCharacter(after) { return true }
            searchStart = range.upperBound
        }
        return false
    }

    /// Each declaration (type, function, initializer, property) with its lines and whether it is marked.
    static func declarations(in source: SwiftSourceText) -> [(name: String, lines: ClosedRange<Int>, marked: Bool)] {
        let lines = String(source.code).components(separatedBy: "\n")
        let rawLines = source.raw.components(separatedBy: "\n")
        let header =
            #/^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|open|static|final|nonisolated|mutating)\s+)*(?:struct|class|enum|actor|protocol|extension|func|init|var|let)\b\s*([A-Za-z_][A-Za-z0-9_]*)?/#
        var found: [(String, ClosedRange<Int>, Bool)] = []
        for (index, line) in lines.enumerated() {
            guard let match = line.firstMatch(of: header) else { continue }
            let name = match.1.map(String.init) ?? "init"
            var above = index - 1
            var marked = false
            while above >= 0, rawLines[above].trimmingCharacters(in: .whitespaces).hasPrefix("@") {
                if rawLines[above].contains(attribute) { marked = true }
                above -= 1
            }
            found.append((name, index...end(ofDeclarationAt: index, in: lines), marked))
        }
        return found
    }

    /// The line where the declaration starting at `start` ends: its braces' close, or the line itself.
    static func end(ofDeclarationAt start: Int, in lines: [String]) -> Int {
        var depth = 0
        var opened = false
        for index in start..<lines.count {
            for character in lines[index] {
                if character == "{" {
                    depth += 1
                    opened = true
                } else if character == "}" {
                    depth -= 1
                    if opened && depth == 0 { return index }
                }
            }
            if !opened && index > start { return start }
        }
        return start
    }
}
