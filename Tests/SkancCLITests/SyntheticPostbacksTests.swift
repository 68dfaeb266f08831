import Foundation
import SkanCompiler
import SkanTestSupport
import Testing

/// `skanc simulate --postbacks` through `skanc postbacks`, for every shipped schema, signed and unsigned: every
/// postback is read `ok` (and verified, when signed), and decodes to the values the simulation sent.
@Suite struct SyntheticPostbacksTests {

    static let frameworkAndSigning = [
        ("skadnetwork", false), ("skadnetwork", true), ("adattributionkit", false), ("adattributionkit", true),
    ]

    @Test(arguments: ShippedSchemas.all, frameworkAndSigning)
    func postbacksReadBackAsTheValuesSent(_ path: String, _ how: (String, Bool)) throws {
        let (framework, signed) = how
        let schema = try ShippedSchemas.compile(path)
        let directory = try TemporaryDirectory()
        let journey = directory.url.appendingPathComponent("journey.jsonl")
        try RandomJourney.text(for: schema, seed: path.utf8.count).write(to: journey, atomically: true, encoding: .utf8)
        var arguments = [
            "simulate", path, journey.path, "--postbacks", "--users", "12", "--tiers", "1:1,2:1,3:2", "--framework",
            framework,
        ]
        if signed { arguments += ["--sign-with", "Tests/Fixtures/keys/rfc6979-test-key.pem"] }
        let made = try CLI.run(arguments)
        try #require(made.status == 0, "\(made.stderr)")
        let postbacks = directory.url.appendingPathComponent("postbacks.jsonl")
        try made.stdout.write(to: postbacks, atomically: true, encoding: .utf8)
        var read = ["postbacks", path, postbacks.path, "--format", "jsonl"]
        if signed {
            let key = try #require(made.stderr.split(separator: "=", maxSplits: 1).last?.split(separator: " ").first)
            #expect(framework != "adattributionkit" || made.stdout.contains("\"jws-string\":"))
            let kind = framework == "skadnetwork" ? "skadnetwork" : "jws:skanc-test/1"
            read += ["--public-key", "\(kind)=\(key)"]
        } else {
            read += ["--no-verify"]
        }
        let decoded = try CLI.run(read)
        try #require(decoded.status == 0, "\(decoded.stderr)")
        let rows = try JSONLines.objects(decoded.stdout)
        #expect(!rows.isEmpty)
        for row in rows {
            #expect(row["status"] as? String == "ok", "\(path): \(row)")
            if signed { #expect(row["signature"] as? String == "verified", "\(path): \(row)") }
        }
        // The first user runs the whole journey: its postbacks carry the values last sent in each window.
        let simulated = try JSONLines.objects(
            try CLI.run(["simulate", path, journey.path, "--format", "jsonl"]).stdout)
        let firstUser = rows.prefix { row in
            (row["postback_sequence_index"] as? Int ?? 0) > 0 || row["line"] as? Int == 1
        }
        var compared = 0
        for row in firstUser {
            let index = try #require(row["postback_sequence_index"] as? Int)
            compared += row["fine_value"] is Int || row["coarse_value"] is String ? 1 : 0
            let sent = simulated.filter { $0["sent"] as? Bool == true && $0["window"] as? Int == index + 1 }.last
            if let fine = row["fine_value"] as? Int {
                #expect(fine == sent?["fine_value"] as? Int, "\(path) window \(index + 1)")
            }
            if let coarse = row["coarse_value"] as? String {
                #expect(coarse == sent?["coarse_value"] as? String, "\(path) window \(index + 1)")
            }
        }
        // Tiers 1-3 only: the first window's postback carries a value, which was compared.
        #expect(compared >= 1, "\(path)")
    }

    @Test func badOptionsAreUsageErrors() throws {
        let journey = "Tests/Fixtures/journeys/game.jsonl"
        #expect(try CLI.run(["simulate", "Schemas/Game.skan", journey, "--postbacks", "--tiers", "5:1"]).status == 64)
        #expect(try CLI.run(["simulate", "Schemas/Game.skan", journey, "--postbacks", "--users", "0"]).status == 64)
        let badKey = try CLI.run([
            "simulate", "Schemas/Game.skan", journey, "--postbacks", "--sign-with", "Schemas/Game.skan",
        ])
        #expect(badKey.status == 1 && badKey.stderr.contains("not a P-256 private key"))
        #expect(badKey.stderr.contains("[signing-key-invalid]"))
    }
}
