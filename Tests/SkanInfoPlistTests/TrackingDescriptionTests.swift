import Foundation
import SkanCore
import Testing

@testable import SkanInfoPlist

/// NSUserTrackingUsageDescription judged by what it says, in several languages: real descriptions from a fixture,
/// each with the verdict App Review would give; then the messages, the --tracking rule and localized files.
@Suite struct TrackingDescriptionTests {
    struct Sample: Decodable {
        var language: String
        var verdict: String
        var text: String
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let samples: [Sample] = {
        let url = root.appendingPathComponent("Tests/Fixtures/plist/tracking-descriptions.json")
        return (try? JSONDecoder().decode([Sample].self, from: Data(contentsOf: url))) ?? []
    }()

    static func verdict(_ problem: UsageDescription.Problem?) -> String {
        switch problem {
        case nil: "ok"
        case .placeholder: "placeholder"
        case .vague: "vague"
        case .coercive: "coercive"
        }
    }

    @Test func eachRealDescriptionGetsItsVerdict() {
        #expect(Self.samples.count >= 20)
        #expect(Set(Self.samples.map(\.language)).count >= 8)
        for sample in Self.samples {
            #expect(
                Self.verdict(UsageDescription.problem(of: sample.text)) == sample.verdict,
                "\(sample.language): \(sample.text)")
        }
    }

    @Test func unspacedScriptsAreMeasuredByCharacter() {
        // One "word" by spaces, twenty-three by meaning.
        #expect(UsageDescription.length(of: "用于统计广告带来的安装效果，帮助我们判断哪些推广渠道值得继续投入") > 10)
        #expect(UsageDescription.length(of: "Ads only") == 2)
        #expect(UsageDescription.length(of: "広告") == 1)
    }

    static func check(_ description: String?, tracking: Bool = false) throws -> [Diagnostic] {
        var body = ""
        if let description {
            body = "<key>NSUserTrackingUsageDescription</key>\n<string>\(description)</string>"
        }
        let file = try InfoPlistFile.parse(InfoPlistCheckTests.xml(body))
        return InfoPlistCheck(file, options: .init(linksTracking: tracking)).diagnostics.filter {
            $0.code.rawValue.hasPrefix("tracking-description")
        }
    }

    @Test func messagesSayWhatToDo() throws {
        let vague = try #require(try Self.check("To improve your experience").first)
        #expect(vague.code == .trackingDescriptionVague)
        #expect(vague.location?.line == 6)
        #expect(
            vague.message
                == "'To improve your experience' does not say what the data is used for; App Review rejects vague texts: name the purpose (say, 'Your data is used to measure which ads brought you to the app.')"
        )
        let coercive = try #require(try Self.check("Allow it or you will not be able to use the app.").first)
        #expect(coercive.code == .trackingDescriptionCoercive)
        #expect(
            coercive.message
                == "'Allow it or you will not be able to use the app.' pressures the user ('will not be able to use'); App Review rejects apps that require or reward allowing tracking: state the purpose only, and let the app work either way"
        )
        let placeholder = try #require(try Self.check("TODO").first)
        #expect(placeholder.code == .trackingDescriptionPlaceholder)
        #expect(
            placeholder.message
                == "'TODO' is a placeholder; App Review rejects it: say what the data is used for (say, 'Your data is used to measure which ads brought you to the app.')"
        )
        #expect(try Self.check("用于统计广告带来的安装效果，帮助我们判断哪些推广渠道值得继续投入，不会用于识别您的个人身份。").isEmpty)
    }

    @Test func aMissingDescriptionIsAnErrorWhenTheAppLinksTracking() throws {
        let warning = try #require(try Self.check(nil).first)
        #expect(warning.severity == .warning)
        let error = try #require(try Self.check(nil, tracking: true).first)
        #expect(error.severity == .error)
        #expect(error.code == .trackingDescriptionMissing)
        #expect(
            error.message
                == "no NSUserTrackingUsageDescription, and the app links tracking authorization: it crashes when it asks; say what the data is used for"
        )
    }

    @Test func aBinaryListNamesTheKey() throws {
        let root: [String: Any] = ["NSUserTrackingUsageDescription": "我们希望为您提供更好的体验和更优质的服务"]
        let data = try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0)
        let found = InfoPlistCheck(try InfoPlistFile.parse([UInt8](data))).diagnostics
        let vague = try #require(found.first { $0.code == .trackingDescriptionVague })
        #expect(vague.location == nil)
        #expect(vague.subject == "NSUserTrackingUsageDescription")
    }

    static func temporary(_ name: String, _ data: Data) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "skanc-strings-\(UUID().uuidString)/ja.lproj")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    @Test func localizedStringsFilesAreJudgedAtTheirLines() throws {
        let strings = """
            /* Privacy */
            "NSCameraUsageDescription" = "Scan codes";

            // The tracking prompt
            NSUserTrackingUsageDescription = "より良い体験をご提供するために使用します";
            "CFBundleDisplayName" = "Shop \\"Pro\\" \\U2603";
            """
        // Xcode wrote strings files as UTF-16 with a byte order mark.
        var utf16 = Data([0xFF, 0xFE])
        for unit in strings.utf16 { utf16.append(contentsOf: [UInt8(unit & 0xFF), UInt8(unit >> 8)]) }
        for data in [Data(strings.utf8), utf16] {
            let url = try Self.temporary("InfoPlist.strings", data)
            defer {
                try? FileManager.default.removeItem(at: url.deletingLastPathComponent().deletingLastPathComponent())
            }
            let entries = try LocalizedStrings.values(
                of: "NSUserTrackingUsageDescription", in: [UInt8](try Data(contentsOf: url)), path: url.path)
            #expect(entries == [.init(language: "ja", value: "より良い体験をご提供するために使用します", line: 5)])
            let found = InfoPlistCheck.localizedTrackingDescriptions(entries)
            #expect(found.map(\.code) == [.trackingDescriptionVague])
            #expect(found.first?.location?.line == 5)
            #expect(found.first?.message.hasPrefix("'より良い体験をご提供するために使用します' (ja) does not say") == true)
        }
        let display = try LocalizedStrings.stringsValues(of: "CFBundleDisplayName", in: Data(strings.utf8))
        #expect(display.map(\.value) == ["Shop \"Pro\" ☃"])
    }

    @Test func aStringCatalogIsJudgedPerLanguage() throws {
        let catalog = """
            {"sourceLanguage":"en","version":"1.0","strings":{"NSUserTrackingUsageDescription":{"localizations":{
              "en":{"stringUnit":{"state":"translated","value":"Your data is used to measure which ads brought you here."}},
              "zh-Hans":{"stringUnit":{"state":"translated","value":"请允许跟踪以便衡量广告效果，否则无法使用本应用的全部功能。"}},
              "de":{"stringUnit":{"state":"translated","value":"Um dein Erlebnis zu verbessern"}}}}}}
            """
        let url = try Self.temporary("InfoPlist.xcstrings", Data(catalog.utf8))
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent().deletingLastPathComponent()) }
        let entries = try LocalizedStrings.values(
            of: "NSUserTrackingUsageDescription", in: [UInt8](try Data(contentsOf: url)), path: url.path)
        #expect(entries.map(\.language) == ["de", "en", "zh-Hans"])
        let found = InfoPlistCheck.localizedTrackingDescriptions(entries)
        #expect(found.map(\.code) == [.trackingDescriptionVague, .trackingDescriptionCoercive])
        #expect(
            found.map(\.subject) == ["NSUserTrackingUsageDescription[de]", "NSUserTrackingUsageDescription[zh-Hans]"])
    }

    @Test func unreadableStringsFilesSaySo() throws {
        for text in ["\"a\" = \"b\"", "\"a\" \"b\";", "\"a\" = \"b", "= \"b\";"] {
            #expect(throws: LocalizedStrings.Unreadable.self) {
                try LocalizedStrings.stringsValues(of: "a", in: Data(text.utf8))
            }
        }
        #expect(throws: LocalizedStrings.Unreadable.self) {
            try LocalizedStrings.catalogValues(of: "a", in: Data("[1]".utf8))
        }
    }
}

/// Every input in Fuzz/Regressions/strings (the `strings` fuzz target's), replayed through the same readers and
/// the judgement: each is read or refused with a diagnostic, never a crash. A missing or empty folder fails.
@Suite struct StringsFuzzRegressionTests {
    @Test func everyRegressionInputIsReadOrRefused() throws {
        let directory = TrackingDescriptionTests.root.appendingPathComponent("Fuzz/Regressions/strings")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix(".") }
        #expect(!files.isEmpty)
        var read = 0
        for file in files {
            let data = try Data(contentsOf: directory.appendingPathComponent(file))
            if let pairs = try? LocalizedStrings.stringsValues(of: "NSUserTrackingUsageDescription", in: data) {
                read += pairs.count
                for pair in pairs { _ = UsageDescription.problem(of: pair.value) }
            }
            if let entries = try? LocalizedStrings.catalogValues(of: "NSUserTrackingUsageDescription", in: data) {
                read += entries.count
            }
        }
        #expect(read >= 2)
        let cut = try Data(contentsOf: directory.appendingPathComponent("cut-escape.strings"))
        #expect(throws: LocalizedStrings.Unreadable.self) {
            try LocalizedStrings.stringsValues(of: "NSUserTrackingUsageDescription", in: cut)
        }
        let utf8 = try Data(contentsOf: directory.appendingPathComponent("utf8.strings"))
        #expect(
            try LocalizedStrings.stringsValues(of: "NSUserTrackingUsageDescription", in: utf8).map(\.value) == [
                "Your data is used to measure ads ☃ 😀"
            ])
    }
}
