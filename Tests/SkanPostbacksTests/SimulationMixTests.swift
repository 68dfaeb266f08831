import Foundation
import SkanCompiler
import SkanCore
import SkanTestSupport
import Testing

@testable import SkanPostbacks

/// A mix of journeys, networks and campaigns (`skanc simulate --mix`): read strictly, and drawn from at the
/// shares it states.
@Suite struct SimulationMixTests {
    static func mix(_ text: String) throws(SimulationMix.Invalid) -> SimulationMix {
        try SimulationMix(json: Array(text.utf8))
    }

    static let trial = """
        {"journeys": [{"file": "browser.jsonl", "weight": 90, "keep": 0.5}, {"file": "payer.jsonl", "weight": 10,
          "keep": 1}],
         "networks": [{"ad_network_id": "one.skadnetwork", "campaigns": 4, "weight": 3},
                      {"ad_network_id": "two.skadnetwork", "campaigns": 2, "weight": 1}],
         "adattributionkit": 0.25}
        """

    @Test func aMixIsReadAsWritten() throws {
        let mix = try Self.mix(Self.trial)
        #expect(mix.journeys.map(\.file) == ["browser.jsonl", "payer.jsonl"])
        #expect(mix.journeys.map(\.keep) == [0.5, 1])
        #expect(mix.networks.map(\.campaigns) == [4, 2] && mix.adAttributionKit == 0.25 && mix.tiers == nil)
        let fixed = try Self.mix(
            #"{"journeys": [{"file": "a"}], "networks": [{"ad_network_id": "n"}], "tiers": {"2": 1}}"#)
        #expect(fixed.tiers == [.two: 1] && fixed.journeys[0].weight == 1 && fixed.journeys[0].keep == 0.5)
    }

    @Test(arguments: [
        ("[]", "one JSON object"),
        (#"{"journeys": [], "networks": []}"#, "'journeys' is a list of 1 to 100"),
        (#"{"journeys": [{"weight": 1}], "networks": []}"#, "names its 'file'"),
        (#"{"journeys": [{"file": "a", "keep": 2}], "networks": []}"#, "'keep' is a number from 0 to 1"),
        (#"{"journeys": [{"file": "a", "weight": 0}], "networks": []}"#, "weight above 0"),
        (#"{"journeys": [{"file": "a"}], "networks": [{"ad_network_id": "n", "campaigns": 901}]}"#, "from 1 to 900"),
        (#"{"journeys": [{"file": "a"}], "networks": [{"ad_network_id": "n", "campaigns": 1.5}]}"#, "whole number"),
        (#"{"journeys": [{"file": "a"}], "networks": [{"ad_network_id": "n"}], "tiers": {"4": 1}}"#, "tiers 0 to 3"),
        (#"{"journeys": [{"file": "a"}], "networks": [{"ad_network_id": "n"}], "users": 3}"#, "unknown key 'users'"),
        (#"{"journeys": [{"file": "a"}], "networks": [{"ad_network_id": "n"}], "adattributionkit": -1}"#, "0 to 1"),
        (#"{"journeys": [{"file": "a"}], "networks": [{"ad_network_id": "n"}, {"ad_network_id": "n"}]}"#, "twice"),
        (#"{"journeys": [{"file": "a"}], "networks": [{"ad_network_id": "a b\u001b"}]}"#, "letters, digits"),
        (#"{"journeys": [{"file": "a"}], "networks": [{"ad_network_id": "x,\"y"}]}"#, "letters, digits"),
    ])
    func aBadMixSaysWhatToWrite(_ text: String, _ message: String) {
        #expect(throws: SimulationMix.Invalid.self) { try Self.mix(text) }
        do {
            _ = try Self.mix(text)
        } catch {
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    /// Each network's share spread over its campaigns as 1, 1/2, 1/3, …; distinct identifiers within a network;
    /// tiers by expected installs.
    @Test func campaignsAreSizedAndTieredBySize() throws {
        let mix = try Self.mix(Self.trial)
        var random = SplitMix64(seed: 3)
        let campaigns = SyntheticPostbacks.campaigns(of: mix, users: 20_000, random: &random)
        #expect(campaigns.count == 6)
        #expect(abs(campaigns.reduce(0) { $0 + $1.share } - 1) < 1e-12)
        let one = campaigns.filter { $0.adNetworkID == "one.skadnetwork" }
        #expect(abs(one.reduce(0) { $0 + $1.share } - 0.75) < 1e-12)
        #expect(abs(one[0].share / one[1].share - 2) < 1e-9 && abs(one[0].share / one[3].share - 4) < 1e-9)
        #expect(Set(one.map(\.sourceIdentifier)).count == 4 && one.allSatisfy { $0.sourceIdentifier.count == 4 })
        // 0.75 / (1 + 1/2 + 1/3 + 1/4) of 20,000 users = 7,200 installs: mostly tier 3; the smallest far fewer.
        #expect(one[0].tiers == SimulationMix.tiers(forInstalls: 7_200) && one[0].tiers[.three] == 0.9)
        #expect(SimulationMix.tiers(forInstalls: 50)[.three] == nil)
    }

    /// Users are drawn at the mix's shares: journeys (a payer journey kept whole: its weight is the payers'
    /// share), networks and AdAttributionKit; every identifier differs; the same seed gives the same lines.
    @Test func usersAreDrawnAtTheStatedShares() throws {
        let schema = try ShippedSchemas.compile("Schemas/Game.skan")
        let mix = try Self.mix(Self.trial)
        let browser = #"{"hour": 0.1, "event": "sign_up"}"# + "\n" + #"{"hour": 2, "event": "level_complete"}"#
        let payer = #"{"hour": 1, "event": "purchase", "value": 9.99}"#
        var options = SyntheticPostbacks.Options()
        (options.users, options.seed) = (4000, 11)
        func run() -> (lines: [String], truths: [SyntheticPostbacks.Truth], diagnostics: [[Diagnostic]]) {
            var lines: [String] = []
            var truths: [SyntheticPostbacks.Truth] = []
            let diagnostics = SyntheticPostbacks.generate(
                schema: schema, mix: mix, journeys: [Array(browser.utf8), Array(payer.utf8)], options: options
            ) {
                lines.append($0)
                truths.append($1)
            }
            return (lines, truths, diagnostics)
        }
        let (lines, truths, diagnostics) = run()
        #expect(diagnostics.allSatisfy { $0.isEmpty })
        let installs = truths.filter { $0.window == .first }
        #expect(installs.count == 4000)
        let payers = Double(installs.filter { ($0.amounts["revenue"] ?? 0) > 0 }.count) / 4000
        let one = Double(installs.filter { $0.adNetworkID == "one.skadnetwork" }.count) / 4000
        let kit = Double(installs.filter { $0.framework == .adAttributionKit }.count) / 4000
        // Binomial at n = 4000: a standard deviation is under 0.8 points; 4 of them is far from chance.
        #expect(
            abs(payers - 0.10) < 0.03 && abs(one - 0.75) < 0.03 && abs(kit - 0.25) < 0.03, "\(payers) \(one) \(kit)")
        #expect(Set(lines).count == lines.count, "every postback has its own identifier")
        #expect(
            lines.contains { $0.contains("\"jws-string\"") } && lines.contains { $0.contains("\"two.skadnetwork\"") })
        #expect(run().lines == lines)
    }

    /// Every input in Fuzz/Regressions/mix (the `mix` fuzz target's seeds and findings) read as the target reads
    /// it: refused with a message, or a mix within its bounds.
    @Test func fuzzRegressionsStayFixed() throws {
        let directory = Paths.packageRoot.appendingPathComponent("Fuzz/Regressions/mix")
        let inputs = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        #expect(inputs.count >= 3)
        var read = 0
        for url in inputs {
            do {
                let mix = try SimulationMix(json: [UInt8](Data(contentsOf: url)))
                #expect((1...SimulationMix.limit).contains(mix.journeys.count), "\(url.lastPathComponent)")
                #expect(mix.networks.allSatisfy { (1...900).contains($0.campaigns) }, "\(url.lastPathComponent)")
                read += 1
            } catch let invalid as SimulationMix.Invalid {
                #expect(!invalid.message.isEmpty, "\(url.lastPathComponent)")
            }
        }
        #expect(read >= 2, "the shipped trial and the tier mix read")
    }
}
