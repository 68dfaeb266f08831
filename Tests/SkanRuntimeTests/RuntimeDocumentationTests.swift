import Foundation
import Testing

/// docs/Runtime.md states what Apple leaves open and what the runtime does about it, and the conditions under which
/// Developer Mode's short windows hold: a release that changes the behaviour has to change these words too.
@Suite struct RuntimeDocumentationTests {
    static let page: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("docs/Runtime.md"), encoding: .utf8)) ?? ""
    }()

    @Test func everyBehaviourAppleLeavesOpenHasARow() throws {
        let section = try #require(Self.page.components(separatedBy: "### What Apple leaves open").last)
        let rows = section.split(separator: "\n").prefix { !$0.hasPrefix("## ") }.filter { $0.hasPrefix("| ") }
        // The header, then one row each: the coarse value of the copy, untagged updates after the windows, the
        // lock's reach into SKAdNetwork, opens without a conversion, re-engagements before iOS 18.
        #expect(rows.count == 6, "\(rows)")
        for topic in ["coarse value", "untagged update", "SKAdNetwork postbacks", "open without a conversion", "17.5"] {
            #expect(rows.contains { $0.contains(topic) }, "\(topic)")
        }
    }

    @Test func developerModeSaysWhenItsWindowsHold() {
        #expect(Self.page.contains("AdAttributionKit\nDeveloper Mode switch on"))
        #expect(Self.page.contains("Postbacks … from production impressions use the full time-windows"))
        #expect(Self.page.contains("**Only development postbacks** get the short windows"))
    }
}
