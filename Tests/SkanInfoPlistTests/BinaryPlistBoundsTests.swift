import Foundation
import Testing

@testable import SkanInfoPlist

/// The bounds a binary property list must keep before Foundation reads it.
struct BinaryPlistBoundsTests {
    @Test func foundationsOwnBinaryListsPass() throws {
        let root: [String: Any] = ["SKAdNetworkItems": [["SKAdNetworkIdentifier": "cstr6suwn9.skadnetwork"]]]
        let bytes = [UInt8](try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0))
        #expect(BinaryPlistBounds.isBinary(bytes))
        #expect(try BinaryPlistBounds.check(bytes).isEmpty)
    }

    @Test func truncatedListsAreRefused() throws {
        let root: [String: Any] = ["key": "value"]
        let bytes = [UInt8](try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0))
        for length in [8, 20, bytes.count - 1] {
            #expect(throws: BinaryPlistBounds.Refusal.self) { try BinaryPlistBounds.check(Array(bytes.prefix(length))) }
        }
    }
}
