import Foundation
import SkanCore
import Testing

@testable import SkanInfoPlist

/// Merging ad network IDs: order kept, no duplicates, nothing changed when one ID is malformed.
struct NetworkMergeTests {
    static func file(_ identifiers: [String]) throws -> InfoPlistFile {
        let root: [String: Any] = [
            "SKAdNetworkItems": identifiers.map { ["SKAdNetworkIdentifier": $0] }, "CFBundleName": "App",
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)
        return try InfoPlistFile.parse([UInt8](data))
    }

    static func identifiers(_ merged: NetworkMerge) -> [String] {
        (merged.file.root["SKAdNetworkItems"] as? [[String: String]] ?? []).compactMap { $0["SKAdNetworkIdentifier"] }
    }

    @Test func newIDsAreAppendedInOrderAndRepeatsSkipped() throws {
        let merged = try NetworkMerge.merge(
            [(" V72QYCH5UU.skadnetwork ", 1), ("cstr6suwn9.skadnetwork", 2), ("v72qych5uu.skadnetwork", 3)],
            into: try Self.file(["cstr6suwn9.skadnetwork"]))
        #expect(Self.identifiers(merged) == ["cstr6suwn9.skadnetwork", "v72qych5uu.skadnetwork"])
        #expect((merged.added, merged.alreadyPresent, merged.total) == (1, 2, 2))
        #expect(merged.file.root["CFBundleName"] as? String == "App")
    }

    @Test func oneMalformedIDStopsTheMergeAtItsLine() throws {
        let file = try Self.file([])
        do {
            _ = try NetworkMerge.merge([("cstr6suwn9.skadnetwork", 1), ("not-an-id", 2)], into: file)
            Issue.record("a malformed ID was merged")
        } catch {
            #expect(error.ids.map(\.code) == [.networkIDMalformed])
            #expect(error.ids.first?.location?.line == 2)
            #expect(error.plist.isEmpty)
        }
    }

    @Test func idsFromTextSkipCommentsAndKeepLines() throws {
        let text = "\u{FEFF}# networks\r\ncstr6suwn9.skadnetwork\r\n\r\n  v72qych5uu.skadnetwork  \n"
        let read = try InfoPlistFile.networkIdentifiers(of: Array(text.utf8))
        #expect(read.map(\.identifier) == ["cstr6suwn9.skadnetwork", "v72qych5uu.skadnetwork"])
        #expect(read.map(\.line) == [2, 4])
    }
}
