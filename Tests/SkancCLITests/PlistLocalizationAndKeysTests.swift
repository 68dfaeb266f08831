import Foundation
import SkanTestSupport
import Testing

/// `skanc plist check` with --tracking and localized files, and `add-networks --key AdNetworkIdentifiers`.
@Suite struct PlistLocalizationAndKeysTests {
    static func temporary(_ name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "skanc-plist-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent(name)
    }

    @Test func trackingMakesAMissingDescriptionAnErrorAndLocalizedFilesAreJudged() throws {
        let plist = try AttributionAndPlistCommandTests.write(
            [
                "NSAdvertisingAttributionReportEndpoint": "https://example.com",
                "AttributionCopyEndpoint": "https://example.com",
                "SKAdNetworkItems": [["SKAdNetworkIdentifier": "cstr6suwn9.skadnetwork"]],
            ], format: .xml)
        defer { try? FileManager.default.removeItem(at: plist) }
        #expect(try CLI.run(["plist", "check", plist.path]).status == 0)
        let tracking = try CLI.run(["plist", "check", plist.path, "--tracking"])
        #expect(tracking.status == 1)
        #expect(
            tracking.stderr.contains(
                "error: no NSUserTrackingUsageDescription, and the app links tracking authorization: it crashes when it asks; say what the data is used for [tracking-description-missing]"
            ), "\(tracking.stderr)")

        let strings = try Self.temporary("zh-Hans.lproj/InfoPlist.strings")
        try FileManager.default.createDirectory(
            at: strings.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "\"NSUserTrackingUsageDescription\" = \"请允许跟踪以便衡量广告效果，否则无法使用本应用的全部功能。\";\n"
            .write(to: strings, atomically: true, encoding: .utf8)
        let good = try Self.temporary("ja.lproj-InfoPlist.strings")
        try "NSUserTrackingUsageDescription = \"広告の効果を測定するために使用します。\";\n".write(
            to: good, atomically: true, encoding: .utf8)
        let localized = try CLI.run(["plist", "check", plist.path, strings.path, good.path])
        #expect(localized.status == 1)
        #expect(
            localized.stderr.contains(
                "\(strings.path):1: error: '请允许跟踪以便衡量广告效果，否则无法使用本应用的全部功能。' (zh-Hans) pressures the user ('否则无法使用');"
            ), "\(localized.stderr)")
        #expect(!localized.stderr.contains(good.path))
        #expect(localized.stderr.hasSuffix("1 error, 1 warning\n"), "\(localized.stderr)")
        // A file that is no strings file is refused by name; one that cannot be read is reported with its path.
        #expect(try CLI.run(["plist", "check", plist.path, "Info.txt"]).status == 64)
        let missing = try CLI.run(["plist", "check", plist.path, "no/such/InfoPlist.strings"])
        #expect(missing.status == 1)
        #expect(
            missing.stderr.contains("no/such/InfoPlist.strings: error: no such file; check the path [file-unreadable]"))
    }

    @Test func addNetworksFillsAdNetworkIdentifiersWithAdAttributionKitIDs() throws {
        let plist = try AttributionAndPlistCommandTests.write(
            ["CFBundleName": "Shop", "AdNetworkIdentifiers": ["example123.adattributionkit"]], format: .binary)
        defer { try? FileManager.default.removeItem(at: plist) }
        let ids = try Self.temporary("ids.txt")
        try "Example123.adattributionkit\nnetwork456.adattributionkit\ncstr6suwn9.skadnetwork\n".write(
            to: ids, atomically: true, encoding: .utf8)
        // SKAdNetworkItems takes no AdAttributionKit IDs: refused, with what to do.
        let refused = try CLI.run(["plist", "add-networks", plist.path, ids.path])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                "\(ids.path):1: error: 'Example123.adattributionkit' is an AdAttributionKit ID, which SKAdNetworkItems does not take; add it with --key AdNetworkIdentifiers [network-id-malformed]"
            ), "\(refused.stderr)")
        let merged = try CLI.run(["plist", "add-networks", plist.path, ids.path, "--key", "AdNetworkIdentifiers"])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout.contains("added 2 ad network IDs to AdNetworkIdentifiers, 1 already present, 3 in all"))
        let root = try #require(
            try PropertyListSerialization.propertyList(from: Data(contentsOf: plist), format: nil) as? [String: Any])
        #expect(
            root["AdNetworkIdentifiers"] as? [String] == [
                "example123.adattributionkit", "network456.adattributionkit", "cstr6suwn9.skadnetwork",
            ])
        #expect(root["SKAdNetworkItems"] == nil)
        #expect(try CLI.run(["plist", "add-networks", plist.path, ids.path, "--key", "Items"]).status == 64)
    }
}

/// Every code the Info.plist checker can give is named in `skanc plist --help` and the README.
@Suite struct PlistCodesAreDocumentedTests {
    @Test func everyCodeIsInTheHelpAndTheReadme() throws {
        let codesFile = try String(
            contentsOf: Paths.packageRoot.appendingPathComponent("Sources/SkanInfoPlist/InfoPlistCodes.swift"),
            encoding: .utf8)
        let codes = codesFile.matches(of: #/DiagnosticCode\("([a-z0-9-]+)"\)/#).map { String($0.1) }
        #expect(codes.count >= 30)
        let help = try CLI.run(["plist", "--help"]).stdout
        let readme = try String(contentsOf: Paths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for code in codes {
            #expect(help.contains(code), "skanc plist --help does not name \(code)")
            #expect(readme.contains("`\(code)`"), "README does not name \(code)")
        }
    }
}
