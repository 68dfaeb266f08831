import Foundation
import SkanTestSupport
import Testing

/// The analyst's trial, reduced: the shipped mix (3 networks, 36 campaigns, whales among 4.6% payers) simulated
/// with its truth, reported per campaign as the networks see them. Every interval printed as a bound holds the
/// truth, per campaign and in total; the estimates, with a prior of another seed's amounts ("last month"), cover
/// the truth and come near it in total, where the ranges' mid-points overstate it twice over.
/// (`Benchmarks/revenue_coverage.py` runs the full trial over many seeds.)
@Suite struct RevenueTrialTests {
    struct Truth {
        var total = 0.0
        var installs = 0
    }

    /// The window-1 truth per (network, campaign), and the prior file of `seed` 0's amounts.
    static func trial(in directory: TemporaryDirectory) throws -> (
        postbacks: String, prior: String, truth: [String: Truth]
    ) {
        let mix = "Simulations/GameTrial/mix.json"
        func simulate(seed: Int) throws -> (String, [[String: Any]]) {
            let truthPath = directory.url.appendingPathComponent("truth-\(seed).jsonl").path
            let result = try CLI.run([
                "simulate", "Schemas/Game.skan", "--mix", mix, "--postbacks", "--users", "12000", "--seed", "\(seed)",
                "--truth", truthPath,
            ])
            #expect(result.status == 0, "\(result.stderr)")
            let rows = try JSONLines.objects(try String(contentsOfFile: truthPath, encoding: .utf8))
            return (result.stdout, rows.filter { $0["window"] as? Int == 1 })
        }
        let (_, lastMonth) = try simulate(seed: 0)
        let prior = directory.url.appendingPathComponent("prior.txt").path
        let amounts = lastMonth.map { "\((($0["amounts"] as? [String: Double])?["revenue"]) ?? 0)" }
        try amounts.joined(separator: "\n").write(toFile: prior, atomically: true, encoding: .utf8)
        let (postbacks, installs) = try simulate(seed: 7)
        let path = directory.url.appendingPathComponent("postbacks.jsonl").path
        try postbacks.write(toFile: path, atomically: true, encoding: .utf8)
        var truth: [String: Truth] = [:]
        for install in installs {
            let key =
                "\(install["ad_network_id"] as? String ?? "") \((install["source_identifier"] as? String ?? "").prefix(2))"
            truth[key, default: Truth()].total += ((install["amounts"] as? [String: Double])?["revenue"]) ?? 0
            truth[key, default: Truth()].installs += 1
        }
        return (path, prior, truth)
    }

    /// Per campaign: its key, its `installs` object of the revenue field.
    static func campaigns(_ arguments: [String]) throws -> [(key: String, installs: [String: Any])] {
        let result = try CLI.run(
            ["report", "Schemas/Game.skan"] + arguments + [
                "--no-verify", "--format", "json", "--by", "ad_network_id,source_identifier_2",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        return try #require(root["groups"] as? [[String: Any]]).map { group in
            let by = group["by"] as? [String: String?] ?? [:]
            let revenue = (group["revenue"] as? [[String: Any]])?.first { $0["field"] as? String == "revenue" }
            return (
                "\((by["ad_network_id"] ?? nil) ?? "") \((by["source_identifier_2"] ?? nil) ?? "")",
                revenue?["installs"] as? [String: Any] ?? [:]
            )
        }
    }

    static func number(_ value: Any?) -> Double? {
        (value as? NSNumber)?.doubleValue ?? (value as? String).flatMap(Double.init)
    }

    static func holds(_ interval: [String: Any]?, _ truth: Double) -> Bool {
        guard let interval, let low = number(interval["low"]) else { return false }
        return low - 1e-6 <= truth && truth <= (number(interval["high"]) ?? .infinity) + 1e-6
    }

    @Test func everyBoundHoldsTheTruthAndThePriorsEstimateComesNearIt() throws {
        let directory = try TemporaryDirectory()
        let (postbacks, prior, truth) = try Self.trial(in: directory)
        let plain = try Self.campaigns([postbacks])
        let informed = try Self.campaigns([postbacks, "--amounts", prior])
        #expect(plain.count == truth.count && informed.count == truth.count)
        var (total, estimatedTruth, midPointTotal, priorTotal, covered, estimated) = (0.0, 0.0, 0.0, 0.0, 0, 0)
        var (hardLow, hardHigh) = (0.0, 0.0)
        for ((key, bounds), (_, withPrior)) in zip(plain, informed) {
            let truth = try #require(truth[key], "\(key)")
            total += truth.total
            // The hard bounds are the same whatever the method, and hold.
            #expect(Self.holds(bounds, truth.total), "\(key): \(truth.total) outside \(bounds)")
            #expect(Self.number(bounds["low"]) == Self.number(withPrior["low"]))
            hardLow += Self.number(bounds["low"]) ?? 0
            hardHigh += Self.number(bounds["high"]) ?? .infinity
            // A campaign with fewer than two fine-value installs has nothing to estimate from.
            guard let midPoint = bounds["estimate"] as? [String: Any],
                let estimate = withPrior["estimate"] as? [String: Any]
            else {
                #expect(bounds["estimate"] is NSNull && withPrior["estimate"] is NSNull)
                continue
            }
            #expect(midPoint["method"] as? String == "mid-point" && estimate["method"] as? String == "prior")
            estimatedTruth += truth.total
            midPointTotal += Self.number(midPoint["mid"]) ?? 0
            priorTotal += Self.number(estimate["mid"]) ?? 0
            estimated += 1
            if Self.holds(estimate, truth.total) { covered += 1 }
        }
        #expect(hardLow <= total && total <= hardHigh)
        // 36 campaigns at a stated 95%: at most 3 outside (a binomial tail of 5%).
        #expect(covered >= estimated - 3, "\(covered) of \(estimated) intervals hold the truth")
        #expect(estimated >= truth.count - 6, "\(estimated) of \(truth.count) campaigns estimated")
        #expect(
            abs(priorTotal - estimatedTruth) / estimatedTruth < 0.25, "prior: \(priorTotal), truth \(estimatedTruth)")
        #expect(midPointTotal > 1.5 * estimatedTruth, "the mid-points' bias: \(midPointTotal), truth \(estimatedTruth)")
    }

    @Test func aPriorThatIsNoAmountListIsRefusedWithItsLine() throws {
        let directory = try TemporaryDirectory()
        let prior = directory.url.appendingPathComponent("prior.txt")
        try "1.5\n2\nabc\n".write(to: prior, atomically: true, encoding: .utf8)
        let bad = try CLI.run(["report", "Schemas/Game.skan", "--amounts", prior.path, "/dev/null"])
        #expect(bad.status == 1 && bad.stderr.contains("prior.txt:3") && bad.stderr.contains("[amount-invalid]"))
        try "spend\n1\n".write(to: prior, atomically: true, encoding: .utf8)
        let header = try CLI.run(["report", "Schemas/Game.skan", "--amounts", prior.path, "/dev/null"])
        #expect(header.status == 1 && header.stderr.contains("names no amount field"), "\(header.stderr)")
        try "revenue,spend\n1.5,3\n0.5,1\n".write(to: prior, atomically: true, encoding: .utf8)
        let csv = try CLI.run(["report", "Schemas/Game.skan", "--amounts", prior.path, "/dev/null"])
        #expect(csv.status == 0, "\(csv.stderr)")
        let overwrite = try CLI.run([
            "report", "Schemas/Game.skan", "--amounts", prior.path, "/dev/null", "-o", prior.path,
        ])
        #expect(overwrite.status == 64)
    }
}
