import Foundation
import SkanTestSupport
import Testing

/// Inputs built to break a parser: each must get a clear message and a normal exit, never a trap, a stack
/// overflow or a signal.
@Suite struct HostileInputTests {
    static let scratch: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("skanc-hostile-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    static func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = scratch.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// Exit 0 or 1 (a signal shows as another status), no runtime trap text.
    static func expectCleanExit(_ result: CLIResult, _ what: String) {
        #expect(result.status == 0 || result.status == 1, "\(what): status \(result.status)")
        for trap in ["Fatal error", "Swift runtime failure", "Stack overflow", "Segmentation", "Illegal instruction"] {
            #expect(!result.stderr.contains(trap), "\(what): \(result.stderr.prefix(300))")
        }
    }

    static let header = "schema Deep version 1\nflag a at bit 0\nreserved bits 1...5\n"

    @Test func schemasThatNestTooDeep() throws {
        let parens = try Self.file(
            "parens.skan",
            Array(
                (Self.header + "coarse { low when " + String(repeating: "(", count: 200_000) + "a"
                    + String(repeating: ")", count: 200_000) + " low otherwise }\n").utf8))
        let nots = try Self.file(
            "nots.skan", Array((Self.header + "lock when " + String(repeating: "not ", count: 200_000) + "a\n").utf8))
        for path in [parens, nots] {
            let result = try CLI.run(["check", path])
            Self.expectCleanExit(result, path)
            #expect(result.status == 1)
            #expect(result.stderr.contains("nests deeper than 64 levels"))
        }
    }

    @Test func oversizedSchemasAndStrings() throws {
        let line = try Self.file("line.skan", Array(repeating: UInt8(ascii: "x"), count: 50 << 20))
        let string = try Self.file(
            "string.skan",
            Array((Self.header + "flag b at bit 1 \"" + String(repeating: "s", count: 20 << 20) + "\"\n").utf8))
        for path in [line, string] {
            let result = try CLI.run(["check", path])
            Self.expectCleanExit(result, path)
            #expect(result.stderr.contains("schemas may be at most 1048576 bytes (1 MiB) [limit]"))
            // A 50 MB file read up to the limit is never called a 1048577-byte file.
            #expect(result.stderr.contains("the schema is larger than 1 MiB;"))
        }
        let longString = try Self.file(
            "long-string.skan",
            Array((Self.header + "flag b at bit 1 \"" + String(repeating: "s", count: 100_000) + "\"\n").utf8))
        let result = try CLI.run(["check", longString])
        #expect(result.stderr.contains("string is longer than 65536 bytes [limit]"))
    }

    @Test func hugeIntegersNulBytesInvalidUTF8AndRandomBytes() throws {
        let huge = try Self.file(
            "huge.skan", Array("schema H version 1\nflag a at bit 99999999999999999999999999\n".utf8))
        let nul = try Self.file("nul.skan", Array("schema N version 1\n\u{0}\u{0}flag a at bit 0\n".utf8))
        let utf8 = try Self.file(
            "utf8.skan", Array("schema U version 1\nflag a at bit 0 ".utf8) + [0xFF, 0xC3, 0x28] + Array("\n".utf8))
        var generator = SystemRandomNumberGenerator()
        let random = try Self.file(
            "random.skan", (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        for (path, message) in [(huge, "is too large"), (nul, "NUL"), (utf8, "byte 0xFF"), (random, "error:")] {
            let result = try CLI.run(["check", path])
            Self.expectCleanExit(result, path)
            #expect(result.status == 1)
            #expect(result.stderr.contains(message), "\(path): \(result.stderr.prefix(300))")
        }
        let decode = try CLI.run(["decode", "Schemas/Shop.skan", "99999999999999999999999", "-9223372036854775808"])
        Self.expectCleanExit(decode, "decode")
        #expect(decode.stdout.contains("'99999999999999999999999': not a value"))
        #expect(decode.stdout.contains("-9223372036854775808: not a Shop v3 fine value"))
    }

    @Test func hostilePostbackFiles() throws {
        var bytes = Array(String(repeating: "[", count: 1_000_000).utf8) + [0x0A]
        bytes += Array("{\"x\":\"".utf8) + Array(repeating: UInt8(ascii: "a"), count: 50 << 20) + Array("\"}\n".utf8)
        bytes += Array("{\"conversion-value\":1e999999,\"transaction-id\":\"\u{0}\"}\n".utf8)
        bytes += Array("{\"conversion-value\":5,\"ad-network-id\":\"".utf8) + [0xFF, 0xFE] + Array("\"}\n".utf8)
        var generator = SystemRandomNumberGenerator()
        bytes += (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let path = try Self.file("hostile.jsonl", bytes)
        let result = try CLI.run(["postbacks", "Schemas/Shop.skan", path, "--summary"])
        Self.expectCleanExit(result, "postbacks")
        // CSV rows end in CRLF; the random bytes may hold line breaks of their own inside no row.
        let rows = result.stdout.components(separatedBy: "\r\n").dropLast()
        #expect(rows[1].hasPrefix("1,not-json,"))
        #expect(rows[2].hasPrefix("2,line-too-long,"))
        #expect(rows[3].hasPrefix("3,not-json,"))
        #expect(rows[4].hasPrefix("4,missing-field,missing,skadnetwork,1.0,,\u{FFFD}\u{FFFD},"))
        let read = Int(result.stderr.split(separator: "\n")[0].split(separator: " ")[2])!
        #expect(rows.count == read + 1)
    }
}

/// Files read whole are bounded by their kind: an endless input (`/dev/zero`) is refused at the limit with a
/// located error, never read to the end of memory.
@Suite struct EndlessInputTests {
    @Test(arguments: [
        (["simulate", "Schemas/Game.skan", "/dev/zero"], "16 MiB, the most the journey may"),
        (["simulate", "Schemas/Game.skan", "--mix", "/dev/zero", "--postbacks"], "1 MiB, the most the mix may"),
        (["import", "ga4", "/dev/zero"], "4 MiB, the most the configuration may"),
        (["import", "meta", "/dev/zero"], "4 MiB, the most the configuration may"),
        (["import", "google-ads", "/dev/zero"], "4 MiB, the most the configuration may"),
        (["suggest", "buckets", "--from", "/dev/zero", "--bits", "3"], "16 MiB, the most the amounts may"),
        (
            [
                "report", "Schemas/Game.skan", "Tests/Fixtures/apple-examples.jsonl", "--no-verify", "--cost",
                "/dev/zero",
            ],
            "16 MiB, the most the cost file may"
        ),
    ])
    func anEndlessFileIsRefusedAtItsLimit(_ arguments: [String], _ message: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("/dev/zero: error: holds more than \(message)"), "\(result.stderr)")
    }
}
