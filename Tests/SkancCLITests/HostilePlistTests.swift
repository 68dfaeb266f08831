import Foundation
import SkanTestSupport
import Testing

/// `skanc plist` on property lists and ID files made to hurt: shared containers, repeated keys, IDs with
/// invisible marks, CR LF and CR line ends, byte-order marks, control characters, comments that look like values.
@Suite struct HostilePlistTests {
    /// A folder of the test's own holding `bytes` as `name`, and that file's path.
    static func scratch(_ name: String, _ bytes: [UInt8]) throws -> (directory: TemporaryDirectory, path: String) {
        let directory = try TemporaryDirectory()
        return (directory, try directory.write(bytes: bytes, to: name).path)
    }

    /// A binary property list whose top dictionary holds A0, where each Ai is an array of A(i+1) twice: small,
    /// but a reader that expands references builds 2^levels arrays.
    static func sharedReferences(levels: Int) -> [UInt8] {
        var objects: [[UInt8]] = []
        objects.append([0xD1, 1, 2])  // {key: A0}, one-byte references
        objects.append([0x51, UInt8(ascii: "k")])  // "k"
        for level in 0..<levels { objects.append([0xA2, UInt8(3 + level), UInt8(3 + level)]) }
        objects.append([0xA0])  // the last, empty array
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        for offset in offsets { bytes += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
        bytes += [0, 0, 0, 0, 0, 0, 2, 1]
        func eight(_ value: Int) -> [UInt8] { (0..<8).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) } }
        bytes += eight(objects.count) + eight(0) + eight(table)
        return bytes
    }

    @Test func sharedContainersAreRefusedBeforeFoundationExpandsThem() throws {
        let bytes = Self.sharedReferences(levels: 30)
        #expect(bytes.count < 256)
        let (directory, path) = try Self.scratch("Info.plist", bytes)
        defer { withExtendedLifetime(directory) {} }
        let result = try CLI.run(["plist", "check", path])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "\(path): error: not read: an array or dictionary is shared by several containers, which readers expand into copies [plist-unreadable]\n"
        )
        // One level of the same shape, no sharing, reads.
        let tree = try Self.scratch("Info.plist", Self.sharedReferences(levels: 0))
        defer { withExtendedLifetime(tree) {} }
        #expect(try CLI.run(["plist", "check", tree.path]).stderr.contains("skadnetwork-items-missing"))
    }

    @Test func aLargeFileIsRefusedUnread() throws {
        let (directory, path) = try Self.scratch(
            "Info.plist", Array(repeating: UInt8(ascii: " "), count: (8 << 20) + 1))
        defer { withExtendedLifetime(directory) {} }
        let result = try CLI.run(["plist", "check", path])
        #expect(result.status == 1)
        #expect(
            result.stderr == "\(path): error: the file is over 8 MiB; name the app's Info.plist [plist-too-large]\n")
    }

    static func xml(_ body: String, lineEnd: String = "\n") -> [UInt8] {
        let lines =
            [
                #"<?xml version="1.0" encoding="UTF-8"?>"#,
                #"<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">"#,
                #"<plist version="1.0">"#, "<dict>",
            ] + body.split(separator: "\n").map(String.init) + ["</dict>", "</plist>"]
        return Array(lines.joined(separator: lineEnd).utf8)
    }

    static let items = """
        <key>SKAdNetworkItems</key>
        <array>
        <dict><key>SKAdNetworkIdentifier</key><string>cstr6suwn9.skadnetwork</string></dict>
        <!-- <dict><key>SKAdNetworkIdentifier</key><string>BAD.skadnetwork</string></dict> -->
        <dict><key>SKAdNetworkIdentifier</key><string>BAD.skadnetwork</string></dict>
        </array>
        """

    @Test(arguments: ["\n", "\r\n", "\r"])
    func findingsHaveTheirLinesWhateverTheLineEndsAndComments(_ lineEnd: String) throws {
        let (directory, path) = try Self.scratch("Info.plist", Self.xml(Self.items, lineEnd: lineEnd))
        defer { withExtendedLifetime(directory) {} }
        let result = try CLI.run(["plist", "check", path])
        // Line 9, not the commented-out copy on line 8 (and not line 1, as CR-only files were read).
        #expect(
            result.stderr.contains("\(path):9: error: 'BAD.skadnetwork' is not"), "\(result.stderr)")
    }

    @Test func aRepeatedKeyIsAnErrorAndStopsTheMerge() throws {
        let body = Self.items + "\n<key>SKAdNetworkItems</key>\n<array/>"
        let (directory, path) = try Self.scratch("Info.plist", Self.xml(body))
        defer { withExtendedLifetime(directory) {} }
        let result = try CLI.run(["plist", "check", path])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "\(path):5: error: SKAdNetworkItems is written 2 times (lines 5, 11); the system reads only one of them: merge them into one [plist-key-repeated]\n"
            ), "\(result.stderr)")
        let ids = directory.url.appendingPathComponent("ids.txt").path
        try "v9wttpbfk9.skadnetwork\n".write(toFile: ids, atomically: true, encoding: .utf8)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let merge = try CLI.run(["plist", "add-networks", path, ids])
        #expect(merge.status == 1)
        #expect(merge.stderr.contains("error: SKAdNetworkItems written more than once; merge the copies first"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func idsWithInvisibleMarksAreMalformed() throws {
        let (directory, path) = try Self.scratch("Info.plist", Self.xml("<key>SKAdNetworkItems</key>\n<array/>"))
        defer { withExtendedLifetime(directory) {} }
        for hostile in [
            "cstr6suwn9\u{301}.skadnetwork", "cstr\u{200D}6suwn9.skadnetwork", "cstr6suwn9\u{FE0F}.skadnetwork",
        ] {
            let ids = directory.url.appendingPathComponent("ids.txt").path
            try (hostile + "\n").write(toFile: ids, atomically: true, encoding: .utf8)
            let result = try CLI.run(["plist", "add-networks", path, ids])
            #expect(result.status == 1, "\(hostile.unicodeScalars.map(\.value))")
            #expect(result.stderr.contains("[network-id-malformed]"))
        }
    }

    @Test func anIDsFileWithCRLFAndAByteOrderMarkReadsEveryID() throws {
        let (directory, path) = try Self.scratch("Info.plist", Self.xml("<key>SKAdNetworkItems</key>\n<array/>"))
        defer { withExtendedLifetime(directory) {} }
        let ids = directory.url.appendingPathComponent("ids.txt").path
        try Data(
            [0xEF, 0xBB, 0xBF] + Array("cstr6suwn9.skadnetwork\r\n# a comment\r\nv9wttpbfk9.skadnetwork\r\n".utf8)
        )
        .write(to: URL(fileURLWithPath: ids))
        let result = try CLI.run(["plist", "add-networks", path, ids])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "\(path): added 2 ad network IDs to SKAdNetworkItems, 0 already present, 2 in all\n")
    }

    @Test func controlCharactersInAValueAreShownEscaped() throws {
        let (directory, path) = try Self.scratch("Info.plist", Self.xml("<key>SKAdNetworkItems</key>\n<array/>"))
        defer { withExtendedLifetime(directory) {} }
        let ids = directory.url.appendingPathComponent("ids.txt").path
        try Data(Array("bad\u{1B}[2Kid\u{7}.skadnetwork\n".utf8)).write(to: URL(fileURLWithPath: ids))
        let result = try CLI.run(["plist", "add-networks", path, ids])
        #expect(result.status == 1)
        #expect(result.stderr.contains("'bad\\u{1B}[2Kid\\u{7}.skadnetwork'"), "\(result.stderr)")
        #expect(!result.stderr.contains("\u{1B}"))
    }
}

/// Thousands of findings, each with its own line, in one pass over the file (it once searched the text from
/// the start for each).
@Suite struct ManyPlistFindingsTests {
    @Test func fourThousandBadIDsEachGetTheirLine() throws {
        let body =
            "<key>SKAdNetworkItems</key>\n<array>\n"
            + (0..<4_000).map { "<dict><key>SKAdNetworkIdentifier</key><string>BAD\($0).skadnetwork</string></dict>" }
            .joined(separator: "\n") + "\n</array>"
        let (directory, path) = try HostilePlistTests.scratch("Info.plist", HostilePlistTests.xml(body))
        defer { withExtendedLifetime(directory) {} }
        let result = try CLI.run(["plist", "check", path])
        let lines = result.stderr.split(separator: "\n").filter { $0.contains("[network-id-uppercase]") }
        #expect(lines.count == 4_000)
        // The Nth ID is on line 7 + N (four lines of header, the key and the array's opening before it).
        for (index, line) in lines.enumerated() where index % 397 == 0 {
            #expect(line.hasPrefix("\(path):\(7 + index): error: 'BAD\(index).skadnetwork' is not"))
        }
    }
}
