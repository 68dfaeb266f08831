import Foundation
import SkanTestSupport
import Testing

/// The assertions of Meta's own rule-engine tests, as journeys: facebook/facebook-ios-sdk,
/// `FBSDKCoreKitTests/Internal/AppEvents/SKAdNetwork/SKAdNetworkRuleTests.testRuleMatch` (a fine value rule) and
/// `SKAdNetworkCoarseCVRuleTests.testRuleMatch` (the same events as a coarse rule), transcribed in
/// `Fixtures/meta-sdk/rule-match.json`. Each recorded state the tests ask about is logged at hour 1: recorded
/// events as events, recorded values as their amounts (an event recorded without a value in the rule's currency
/// logs 0). Events no rule names are left out: the SDK records them but no rule reads them. The imported schema
/// (`skanc simulate`) and the SDK's engine (`meta_evaluate.py`) both give the SDK's answer: fine value 2 and
/// coarse value high where the test says the rule matches, no update where it says it does not.
@Suite struct MetaRuleFixturesTests {
    /// A recorded state of `testRuleMatch` and whether the SDK's test says the rule matches it.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        /// Journey lines at hour 1: event and amount (nil for an event without a value).
        var logged: [(String, Double?)]
        var matches: Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "all events, 1000 USD and 110.1 USD",
            logged: [("fb_skadnetwork_test1", nil), ("fb_mobile_purchase", 1000), ("Subscribe", 110.1)],
            matches: true),
        Case(
            name: "Subscribe at 110.0 USD, not over 110",
            logged: [("fb_skadnetwork_test1", nil), ("fb_mobile_purchase", 1000), ("Subscribe", 110)],
            matches: false),
        Case(name: "nothing recorded", logged: [], matches: false),
        Case(
            name: "all events, no values",
            logged: [("fb_skadnetwork_test1", nil), ("fb_mobile_purchase", 0), ("Subscribe", 0)], matches: false),
        Case(
            name: "purchase at 50 USD",
            logged: [("fb_skadnetwork_test1", nil), ("fb_mobile_purchase", 50), ("Subscribe", 110.1)],
            matches: false),
        Case(
            name: "purchase in JPY only, no USD",
            logged: [("fb_skadnetwork_test1", nil), ("fb_mobile_purchase", 0), ("Subscribe", 110.1)],
            matches: false),
        Case(
            name: "fb_skadnetwork_test1 never recorded",
            logged: [("fb_mobile_purchase", 1000), ("Subscribe", 110.1)], matches: false),
    ]

    @Test(arguments: cases)
    func theSDKsRuleTestsHoldInTheImportAndTheEvaluator(_ test: Case) throws {
        let directory = try TemporaryDirectory()
        let config = Paths.file("Tests/SkanPlatformsTests/Fixtures/meta-sdk/rule-match.json")
        let schema = directory.url.appendingPathComponent("RuleMatch.skan")
        let imported = try CLI.run(["import", "meta", config.path, "-o", schema.path])
        try #require(imported.status == 0, "\(imported.stderr)")
        let lines =
            [#"{"hour": 0.5}"#]
            + test.logged.map { name, amount in
                amount.map { #"{"hour": 1, "event": "\#(name)", "value": \#($0)}"# }
                    ?? #"{"hour": 1, "event": "\#(name)"}"#
            }
        let journey = directory.url.appendingPathComponent("journey.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(to: journey, atomically: true, encoding: .utf8)
        let simulated = try CLI.run(["simulate", schema.path, journey.path, "--format", "jsonl"])
        try #require(simulated.status == 0, "\(simulated.stderr)")
        let sdk = try ChildProcess.run(
            try ChildProcess.onPath("python3"),
            [Paths.file("Tests/Scripts/meta_evaluate.py").path, config.path, journey.path])
        try #require(sdk.status == 0, "meta_evaluate.py: \(sdk.stderr)")
        let schemaSays = try #require(try JSONLines.objects(simulated.stdout).last)
        // The evaluator prints a line per event logged; with none, the SDK never updated.
        let sdkSays =
            try JSONLines.objects(sdk.stdout).last ?? [
                "fine_value": 0, "updated": false, "coarse_value": NSNull(),
            ]
        #expect(schemaSays["fine_value"] as? Int == (test.matches ? 2 : 0))
        #expect(schemaSays["sends"] as? Bool == test.matches)
        #expect(schemaSays["coarse_value"] as? String == (test.matches ? "high" : nil))
        #expect(sdkSays["fine_value"] as? Int == (test.matches ? 2 : 0))
        #expect(sdkSays["updated"] as? Bool == test.matches)
        #expect(sdkSays["coarse_value"] as? String == (test.matches ? "high" : nil))
    }
}
