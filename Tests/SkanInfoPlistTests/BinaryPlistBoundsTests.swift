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

    /// A key whose UTF-16 length is the largest 8-byte count: refused, where the sum of its end once overflowed
    /// (Fuzz/Regressions/plist/saturated-utf16-length).
    @Test func aStringLongerThanTheFileIsRefusedWithoutOverflow() {
        let body: [UInt8] = [0xD1, 1, 1, 0x6F, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 8, 11]
        let trailer: [UInt8] =
            [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 2] + [UInt8](repeating: 0, count: 8)
            + [0, 0, 0, 0, 0, 0, 0, 21]
        for marker: UInt8 in [0x5F, 0x6F] {
            var bytes = Array("bplist00".utf8) + body + trailer
            bytes[11] = marker
            #expect(throws: BinaryPlistBounds.Refusal(reason: "a string lies outside the file")) {
                try BinaryPlistBounds.check(bytes)
            }
        }
    }
}
