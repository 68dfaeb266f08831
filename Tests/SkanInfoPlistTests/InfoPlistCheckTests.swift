import Foundation
import SkanCore
import Testing

@testable import SkanInfoPlist

/// The Info.plist checks on texts given here: codes, severities and where each finding is.
struct InfoPlistCheckTests {
    static func xml(_ body: String) -> [UInt8] {
        Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \(body)
            </dict>
            </plist>
            """.utf8)
    }

    static let cleanBody = """
        <key>SKAdNetworkItems</key>
        <array>
          <dict><key>SKAdNetworkIdentifier</key><string>cstr6suwn9.skadnetwork</string></dict>
        </array>
        <key>NSAdvertisingAttributionReportEndpoint</key>
        <string>https://example.com</string>
        <key>AttributionCopyEndpoint</key>
        <string>https://example.com</string>
        <key>NSUserTrackingUsageDescription</key>
        <string>Your data is used to measure which ads brought you to the app.</string>
        """

    static func check(_ body: String) throws -> [Diagnostic] {
        InfoPlistCheck(try InfoPlistFile.parse(xml(body))).diagnostics
    }

    @Test func aCompleteListHasNoFindings() throws {
        #expect(try Self.check(Self.cleanBody).isEmpty)
    }

    @Test func eachProblemHasItsCodeAndLine() throws {
        let body = Self.cleanBody
            .replacingOccurrences(of: "cstr6suwn9.skadnetwork", with: "CSTR6SUWN9.skadnetwork")
            .replacingOccurrences(
                of: "https://example.com</string>\n<key>Attribution",
                with: "http://example.com</string>\n<key>Attribution"
            )
            .replacingOccurrences(of: "Your data is used to measure which ads brought you to the app.", with: "TODO")
        let found = try Self.check(body)
        #expect(found.map(\.code) == [.networkIDUppercase, .reportEndpointNotHTTPS, .trackingDescriptionPlaceholder])
        #expect(found.allSatisfy { $0.severity == .error })
        // Lines of the XML text: the plist header takes four.
        #expect(found.map { $0.location?.line } == [7, 10, 14])
        #expect(found.allSatisfy { $0.location?.column == 0 && $0.subject == nil })
    }

    @Test func missingKeysAreWarnings() throws {
        let found = try Self.check("")
        #expect(
            found.map(\.code) == [.skadnetworkItemsMissing, .reportEndpointMissing, .trackingDescriptionMissing])
        #expect(found.allSatisfy { $0.severity == .warning })
        #expect(!found.hasErrors)
    }

    @Test func aRepeatedIDIsFoundAtItsSecondLine() throws {
        let body = """
            <key>SKAdNetworkItems</key>
            <array>
              <dict><key>SKAdNetworkIdentifier</key><string>cstr6suwn9.skadnetwork</string></dict>
              <dict><key>SKAdNetworkIdentifier</key><string>cstr6suwn9.skadnetwork</string></dict>
            </array>
            """
        let duplicate = try #require(try Self.check(body).first { $0.code == .networkIDDuplicate })
        #expect(duplicate.location?.line == 8)
    }

    @Test func aBinaryListNamesKeyPathsInstead() throws {
        let root: [String: Any] = ["SKAdNetworkItems": [["SKAdNetworkIdentifier": "not an id"]]]
        let data = try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0)
        let found = InfoPlistCheck(try InfoPlistFile.parse([UInt8](data))).diagnostics
        let malformed = try #require(found.first)
        #expect(malformed.code == .networkIDMalformed)
        #expect(malformed.location == nil)
        #expect(malformed.subject == "SKAdNetworkItems[0].SKAdNetworkIdentifier")
        #expect(
            DiagnosticFormatter().format(malformed, path: "Info.plist")
                .hasPrefix("Info.plist: SKAdNetworkItems[0].SKAdNetworkIdentifier: error: 'not an id' is not"))
    }

    @Test func whatIsNotAnInfoPlistIsRefusedWithACode() {
        #expect(throws: InfoPlistFile.Unreadable.self) { try InfoPlistFile.parse(Array("hello".utf8)) }
        do {
            _ = try InfoPlistFile.parse(Array("<plist><array/></plist>".utf8))
            Issue.record("an array at the top was accepted")
        } catch {
            #expect(error.diagnostic.code == .plistNotDictionary)
        }
    }
}
