import Foundation
import SkanTestSupport
import Testing

/// Meta's `cutoff_time`: the SDK drops the events logged while "cut" in postback 1 (FBSDKSKAdNetworkReporterV2,
/// `_recordAndUpdateEvent` returns before recording when `shouldCutoff` and the postback index is 1), so they count
/// in no window. An import that would count them is refused; the evaluator written from the SDK drops them.
@Suite struct MetaCutoffTests {
    /// A purchase rule for fine value 10 and postback 2's coarse rules reading the purchase, with `cutoff`.
    static func configuration(cutoff: Int, windowOneRules: Bool = true) -> String {
        let fine =
            windowOneRules
            ? #"[{"conversion_value":10,"events":[{"event_name":"fb_mobile_purchase"}]}]"# : "[]"
        return #"{"data":[{"cutoff_time":\#(cutoff),"default_currency":"USD","conversion_value_rules":\#(fine),"#
            + #""coarse_cv_configs":[{"postback_sequence_index":2,"coarse_cv_rules":["#
            + #"{"coarse_cv_value":"high","events":[{"event_name":"fb_mobile_purchase"}]},"#
            + #"{"coarse_cv_value":"low","events":[{"event_name":"fb_mobile_activate_app"}]}]}]}]}"#
    }

    /// activate_app at hour 0.5, a purchase at hour 30, activate_app at hour 60.
    static let journey = """
        {"hour": 0.5, "event": "fb_mobile_activate_app"}
        {"hour": 30, "event": "fb_mobile_purchase"}
        {"hour": 60, "event": "fb_mobile_activate_app"}

        """

    static func evaluate(_ configuration: String, in directory: TemporaryDirectory) throws -> [[String: Any]] {
        let config = directory.url.appendingPathComponent("config.json")
        let journey = directory.url.appendingPathComponent("journey.jsonl")
        try configuration.write(to: config, atomically: true, encoding: .utf8)
        try Self.journey.write(to: journey, atomically: true, encoding: .utf8)
        let result = try ChildProcess.run(
            try ChildProcess.onPath("python3"),
            [Paths.file("Tests/Scripts/meta_evaluate.py").path, config.path, journey.path])
        try #require(result.status == 0, "\(result.stderr)")
        return try JSONLines.objects(result.stdout)
    }

    @Test func aCutoffOfOneDayDropsTheEventsOfHours24To48AndIsRefused() throws {
        let directory = try TemporaryDirectory()
        // The SDK: the purchase at hour 30 is never recorded, so no fine value and postback 2 is low.
        let sdk = try Self.evaluate(Self.configuration(cutoff: 1), in: directory)
        #expect(sdk.last?["fine_value"] as? Int == 0 && sdk.last?["coarse_value"] as? String == "low", "\(sdk)")
        let config = directory.url.appendingPathComponent("config.json")
        let imported = try CLI.run(["import", "meta", config.path])
        #expect(imported.status == 1, "\(imported.stdout)")
        #expect(
            imported.stderr.contains(
                "cutoff_time 1: Meta's SDK never records the events logged from hour 24 to hour 48"))
        #expect(imported.stderr.contains("conversion_value_rules, coarse_cv_configs (postback_sequence_index 2)"))
        #expect(imported.stdout.isEmpty)
    }

    @Test func aCutoffOfZeroRefusesLaterRulesThatReadEvents() throws {
        let directory = try TemporaryDirectory()
        let sdk = try Self.evaluate(Self.configuration(cutoff: 0), in: directory)
        #expect(sdk.last?["fine_value"] as? Int == 0 && sdk.last?["coarse_value"] as? String == "low", "\(sdk)")
        let config = directory.url.appendingPathComponent("config.json")
        let refused = try CLI.run(["import", "meta", config.path])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains("from hour 0 to hour 48") && refused.stderr.contains("(postback_sequence_index 2)"))
        // Rules of postback 1 only: nothing is dropped that a rule reads later; the fine value is always 0.
        let windowOne =
            #"{"data":[{"cutoff_time":0,"default_currency":"USD","conversion_value_rules":"#
            + #"[{"conversion_value":10,"events":[{"event_name":"fb_mobile_purchase"}]}]}]}"#
        try windowOne.write(to: config, atomically: true, encoding: .utf8)
        let imported = try CLI.run(["import", "meta", config.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("never sets a fine value"))
    }

    @Test func aCutoffOfTwoDaysChangesNothing() throws {
        let directory = try TemporaryDirectory()
        let sdk = try Self.evaluate(Self.configuration(cutoff: 2), in: directory)
        #expect(sdk.last?["coarse_value"] as? String == "high", "\(sdk)")
        #expect(sdk.first(where: { $0["line"] as? Int == 2 })?["fine_value"] as? Int == 10, "\(sdk)")
        let config = directory.url.appendingPathComponent("config.json")
        let schema = directory.url.appendingPathComponent("Meta.skan")
        let imported = try CLI.run(["import", "meta", config.path, "-o", schema.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let journey = directory.url.appendingPathComponent("journey.jsonl")
        let simulated = try CLI.run(["simulate", schema.path, journey.path, "--format", "jsonl"])
        let rows = try JSONLines.objects(simulated.stdout)
        #expect(rows.last?["coarse_value"] as? String == "high" && rows[1]["fine_value"] as? Int == 10, "\(rows)")
    }
}
