import Foundation
import SkanCompiler
import SkanCore
import SkanSchema
import SkanTestSupport
import Testing

/// Ad platforms' published configurations ported to the language (Schemas/Platforms), run on the scenarios of the
/// platforms' own tests through the reference semantics.
@Suite struct MetaSDKPortTests {
    let schema: Schema = {
        let text = try! String(
            contentsOf: Paths.schemas.appendingPathComponent("Platforms/MetaSDK.skan"), encoding: .utf8)
        return SchemaCompiler.compile(text).schema!
    }()

    func activity(_ events: [(String, Double?)]) -> Activity {
        Activity(
            events: events.enumerated().map { index, event in
                LoggedEvent(event: schema.eventIndex(named: event.0)!, hour: Double(index), amount: event.1)
            })
    }

    func cases(_ events: [(String, Double?)]) -> (conversionValue: String, testRuleMatch: String) {
        let evaluation = schema.evaluate(activity(events), at: Double(events.count))
        let names = schema.cases(of: evaluation.state).map { $0?.name ?? "?" }
        return (names[0], names[1])
    }

    /// SKAdNetworkRuleTests.testRuleMatch: every listed event logged, and each valued one over its amount.
    @Test func theRuleMatchesAsTheSDKsTestSays() {
        let matched: [(String, Double?)] = [
            ("fb_mobile_purchase", 1000), ("fb_skadnetwork_test1", nil), ("Subscribe", 110.1),
        ]
        #expect(cases(matched).testRuleMatch == "true")
        // Subscribe at 110.0 is not over 110.
        #expect(
            cases([("fb_mobile_purchase", 1000), ("fb_skadnetwork_test1", nil), ("Subscribe", 110)]).testRuleMatch
                == "false")
        // Nothing logged; the events without their values.
        #expect(cases([]).testRuleMatch == "false")
        #expect(
            cases([("fb_mobile_purchase", 0), ("fb_skadnetwork_test1", nil), ("Subscribe", 0)]).testRuleMatch
                == "false")
        // A purchase of 50; a purchase of 1000 in yen.
        #expect(
            cases([("fb_mobile_purchase", 50), ("fb_skadnetwork_test1", nil), ("Subscribe", 110.1)]).testRuleMatch
                == "false")
        #expect(
            cases([("fb_mobile_purchase_jpy", 1000), ("fb_skadnetwork_test1", nil), ("Subscribe", 110.1)])
                .testRuleMatch == "false")
        // The unmatched event set: fb_skadnetwork_test1 never logged.
        #expect(cases([("fb_mobile_purchase", 1000), ("Subscribe", 110.1)]).testRuleMatch == "false")
    }

    /// SKAdNetworkConversionConfigurationTests.testParseRules: rules tried from the highest value down (4, 3, 2), a
    /// rule with two currencies holding for either, and the value never going down as more is logged.
    @Test func theHighestMatchingValueWinsAndOnlyGrows() {
        #expect(cases([]).conversionValue == "none")
        #expect(cases([("fb_mobile_purchase", 20)]).conversionValue == "purchased")
        #expect(cases([("fb_mobile_purchase_jpy", 150)]).conversionValue == "over100USDOrJPY")
        #expect(
            cases([("fb_mobile_purchase_jpy", 150), ("fb_mobile_purchase", 50)]).conversionValue == "over100USDOrJPY")
        #expect(
            cases([("fb_mobile_purchase_jpy", 150), ("fb_mobile_purchase", 50), ("fb_mobile_purchase", 60)])
                .conversionValue == "over100USD")
        // Exactly 100 is not over 100.
        #expect(cases([("fb_mobile_purchase", 100)]).conversionValue == "purchased")
        var journey: [(String, Double?)] = []
        var previous = 0
        var generator = SplitMix64(seed: 0x3E7A)
        for _ in 0..<200 {
            let name = ["fb_mobile_purchase", "fb_mobile_purchase_jpy", "Subscribe", "fb_skadnetwork_test1"]
                .randomElement(using: &generator)!
            journey.append(
                (name, name == "fb_skadnetwork_test1" ? nil : Double(Int.random(in: 0...40, using: &generator))))
            let value = schema.evaluate(activity(journey), at: Double(journey.count)).state.codes[0]
            #expect(value >= previous)
            previous = value
        }
    }
}
