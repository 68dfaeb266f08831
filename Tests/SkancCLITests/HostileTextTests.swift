import Foundation
import SkanTestSupport
import Testing

/// Text from an input (a description, a JSON key, an option's value) reaches the terminal only through
/// `TerminalText`: no escape sequence, bell or NUL gets through, whichever command prints it.
@Suite struct HostileTextTests {
    static let hostile = "\u{1B}]0;owned\u{7}\u{1B}[2J\u{0}\r\nnext"

    static func expectNoControlCharacters(_ text: String, _ what: String) {
        let control = text.unicodeScalars.first { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
        #expect(control == nil, "\(what) printed U+\(String(control?.value ?? 0, radix: 16))")
    }

    @Test func metasUnknownKeysArePrintedEscaped() throws {
        let directory = try TemporaryDirectory()
        let config = directory.url.appendingPathComponent("meta.json")
        let key = try String(decoding: JSONEncoder().encode(Self.hostile), as: UTF8.self)
        try """
        {"data": [{"\(key.dropFirst().dropLast())": 1, "default_currency": "USD", "conversion_value_rules": [
          {"conversion_value": 1, "events": [{"event_name": "fb_mobile_purchase", "\(key.dropFirst().dropLast())": 2}]}
        ]}]}
        """.write(to: config, atomically: true, encoding: .utf8)
        let result = try CLI.run(["import", "meta", config.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "is not read by Meta's SDK").count == 3, "\(result.stderr)")
        #expect(result.stderr.contains(#"\u{1B}]0;owned\u{7}"#))
        Self.expectNoControlCharacters(result.stderr, "import meta")
    }

    @Test func cutDisplayNamesArePrintedEscapedAndCutOnCharacters() throws {
        let directory = try TemporaryDirectory()
        let escapes = #"\u{1B}]0;owned\u{7}\u{1B}[2J\u{0}\u{D}\nnext"#
        let long = String(repeating: "x", count: 49) + "😀 after"
        try """
        schema T
        version 1
        event buy value USD
        field spend at bits 0...1 {
          big = 2 "\(escapes)\(String(repeating: "y", count: 60))" when buy.sum >= 10
          some = 1 "\(long)" when buy
          none = 0 otherwise
        }
        reserved bits 2...5
        coarse { low otherwise }

        """.write(to: directory.url.appendingPathComponent("T.skan"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["export", "T.skan", "--format", "ga4", "--display-names"], in: directory.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("were cut"), "\(result.stderr)")
        Self.expectNoControlCharacters(result.stderr, "export --display-names")
        #expect(!result.stdout.contains("\u{FFFD}") && !result.stdout.contains(#"\ufffd"#))
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let window = try #require(json["postbackWindowOne"] as? [String: Any])
        let names = (window["conversionValues"] as? [[String: Any]] ?? []).compactMap { $0["displayName"] as? String }
        #expect(names.contains(String(repeating: "x", count: 49)), "\(names)")
        #expect(names.allSatisfy { $0.utf16.count <= 50 })
    }

    @Test func aPathOrAnOptionWithEscapesIsPrintedEscaped() throws {
        let result = try CLI.run(["check", "no\u{1B}]0;owned\u{7}.skan"])
        #expect(result.status == 1)
        #expect(result.stderr.contains(#"\u{1B}]0;owned\u{7}"#), "\(result.stderr)")
        Self.expectNoControlCharacters(result.stderr, "check")
        let unknown = try CLI.run(["check", "--\u{1B}[2J"])
        #expect(unknown.status == 64)
        Self.expectNoControlCharacters(unknown.stderr, "an unknown option")
    }

    /// A limit an imported configuration goes past is reported at its JSON entry, never at `<imported>`; a file
    /// named `Self.json` imports as schema `Self`.
    @Test func importLimitsAreReportedAtTheEntry() throws {
        let directory = try TemporaryDirectory()
        let big = directory.url.appendingPathComponent("big.json")
        try
            #"{"postbackWindowOne": {"conversionValues": [{"fineValue": 1, "coarseValue": "COARSE_VALUE_LOW", "eventMappings": [{"eventName": "buy", "minEventValue": 1e+20}]}]}}"#
            .write(to: big, atomically: true, encoding: .utf8)
        let result = try CLI.run(["import", "ga4", big.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("postbackWindowOne.conversionValues[0].eventMappings[0].minEventValue: error:"))
        #expect(!result.stderr.contains("<imported>"))
        let named = directory.url.appendingPathComponent("Self.json")
        try
            #"{"postbackWindowOne": {"conversionValues": [{"fineValue": 1, "coarseValue": "COARSE_VALUE_LOW", "eventMappings": [{"eventName": "buy", "minEventCount": "1"}]}]}}"#
            .write(to: named, atomically: true, encoding: .utf8)
        let imported = try CLI.run(["import", "ga4", named.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("\nschema Self\n"))
    }
}
