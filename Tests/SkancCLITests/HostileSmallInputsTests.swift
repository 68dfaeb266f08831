import Foundation
import SkanTestSupport
import Testing

/// The small hostile inputs: spreadsheets' byte order marks and line ends, numbers that only look like amounts,
/// keys as `openssl ecparam -genkey` writes them, pipes, one schema named twice, an App Store ID that is not one.
@Suite struct HostileSmallInputsTests {
    static func file(_ directory: TemporaryDirectory, _ name: String, _ bytes: [UInt8]) throws -> String {
        let url = directory.url.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    @Test func suggestReadsExcelsCSVAndRefusesWhatIsNoAmount() throws {
        let directory = try TemporaryDirectory()
        let excel = try Self.file(directory, "excel.csv", [0xEF, 0xBB, 0xBF] + Array("amount\r\n12.5\r\n40\r\n".utf8))
        let read = try CLI.run(["suggest", "buckets", "--from", excel, "--column", "amount", "--bits", "1"])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.contains("r1  40...  1 installs"), "\(read.stdout)")
        let lines = try Self.file(directory, "crlf.txt", Array("12.5\r\n40\r\n".utf8))
        #expect(try CLI.run(["suggest", "buckets", "--from", lines, "--bits", "1"]).stdout.contains("r1  40..."))
        for bad in ["0x10", "7\u{0}abc", "1e308", "-3", "4.", "+5"] {
            let path = try Self.file(directory, "bad.txt", Array("5\n\(bad)\n".utf8))
            let result = try CLI.run(["suggest", "buckets", "--from", path, "--bits", "1"])
            #expect(result.status == 1, "\(bad)")
            #expect(result.stderr.contains(":2:1: error:"), "\(bad): \(result.stderr)")
        }
        let open = try Self.file(directory, "open.csv", Array("amount\n\"12\n".utf8))
        let unterminated = try CLI.run(["suggest", "buckets", "--from", open, "--column", "amount", "--bits", "1"])
        #expect(unterminated.stderr.contains("not CSV: an unterminated quoted field (at byte"))
        #expect(!unterminated.stderr.contains("Malformed"))
        for option in ["--name", "--event"] {
            let named = try CLI.run(["suggest", "buckets", "--from", lines, "--bits", "1", option, "a b"])
            #expect(named.status == 64)
        }
    }

    /// Over 2,000 distinct amounts are grouped; a range still starts at an amount of the file.
    @Test func cutPointsAreAmountsOfTheFile() throws {
        let directory = try TemporaryDirectory()
        let amounts = (0..<5_000).map { String(format: "%.2f", Double(($0 * 7_919) % 20_000) / 100) }
        let path = try Self.file(directory, "many.txt", Array((amounts.joined(separator: "\n") + "\n").utf8))
        let result = try CLI.run(["suggest", "buckets", "--from", path, "--bits", "4"])
        #expect(result.status == 0)
        let bounds = result.stdout.split(separator: "\n").filter { $0.hasPrefix("  r") }.compactMap {
            $0.split(separator: " ").dropFirst().first?.split(separator: ".").dropFirst().first
        }
        #expect(!bounds.isEmpty)
        #expect(bounds.allSatisfy { $0.prefix { $0.isNumber }.count <= 2 }, "\(result.stdout)")
    }

    @Test func journeysWithAByteOrderMarkOrCarriageReturnsAlone() throws {
        let directory = try TemporaryDirectory()
        let bom = try Self.file(
            directory, "bom.jsonl", [0xEF, 0xBB, 0xBF] + Array(#"{"hour": 1, "event": "sign_up"}"#.utf8))
        let read = try CLI.run(["simulate", "Schemas/Game.skan", bom])
        #expect(read.status == 0, "\(read.stderr)")
        let cr = try Self.file(
            directory, "cr.jsonl", Array("{\"hour\": 1, \"event\": \"sign_up\"}\r{\"hour\": 2}\r".utf8))
        let refused = try CLI.run(["simulate", "Schemas/Game.skan", cr])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("the file's lines end with CR alone"))
    }

    /// Journeys, imports, `--from` and `--sign-with` read a pipe as they read a file.
    @Test func pipesAreReadAsFiles() throws {
        let result = try ChildProcess.run(
            URL(fileURLWithPath: "/bin/sh"),
            [
                "-c",
                #"printf '{"hour": 1, "event": "sign_up"}\n' | "$SKANC" simulate Schemas/Game.skan /dev/stdin && "#
                    + #"printf '5\n12\n' | "$SKANC" suggest buckets --from /dev/stdin --bits 1 && "#
                    + #"cat Tests/SkanPlatformsTests/Fixtures/meta-config.json | "$SKANC" import meta /dev/stdin"#,
            ], in: CLI.packageRoot, environment: ["SKANC": CLI.executable.path, "PATH": "/usr/bin:/bin"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// `openssl ecparam -name prime256v1 -genkey` writes an `EC PARAMETERS` block before the key.
    @Test func aKeyAfterItsParametersIsRead() throws {
        let directory = try TemporaryDirectory()
        let pem = """
            -----BEGIN EC PARAMETERS-----
            BggqhkjOPQMBBw==
            -----END EC PARAMETERS-----
            \(try String(contentsOf: CLI.packageRoot.appendingPathComponent("Tests/Fixtures/keys/rfc6979-test-key.pem"), encoding: .utf8))
            """
        let key = try Self.file(directory, "key.pem", Array(pem.utf8))
        let journey = try Self.file(directory, "j.jsonl", Array(#"{"hour": 1, "event": "sign_up"}"#.utf8))
        let result = try CLI.run(["simulate", "Schemas/Game.skan", journey, "--postbacks", "--sign-with", key])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("attribution-signature"))
    }

    @Test func oneSchemaNamedTwiceIsRefused() throws {
        let result = try CLI.run([
            "report", "Schemas/Shop.skan,Schemas/Shop.skan", "Tests/Fixtures/apple-examples.jsonl",
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("two schemas have version 3; live versions need their own numbers"))
        #expect(result.stdout.isEmpty)
    }

    @Test(arguments: ["", "abc", "12 34", "-5", "99999999999999999999"])
    func anAppStoreIDIsDigits(_ id: String) throws {
        let result = try CLI.run([
            "export", "Schemas/Platforms/GoogleAds.skan", "--format", "google-ads", "--app-id", id,
        ])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--app-id takes the app's App Store ID"))
    }

    /// A schema whose file name has a comma is that file, not two schemas.
    @Test func aSchemaPathWithACommaIsOneSchema() throws {
        let directory = try TemporaryDirectory()
        let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent("Schemas/Shop.skan"), encoding: .utf8)
        let path = try Self.file(directory, "shop,v3.skan", Array(text.utf8))
        let result = try CLI.run(["table", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Shop version 3"))
    }
}
