import Foundation
import SkanTestSupport
import Testing

/// GA4's first-match list and Meta's SDK update only when an entry or rule matches: where none does, no update,
/// so no postback for windows 2-3. Imports say so with `nothing`, `simulate --postbacks` sends none, and a GA4
/// export adds no catch-all entry.
@Suite struct NothingMatchedTests {
    /// Postback 2's coarse rule reads a purchase; the user only opens the app, in windows 1 and 2.
    static let meta =
        #"{"data":[{"cutoff_time":2,"default_currency":"USD","conversion_value_rules":"#
        + #"[{"conversion_value":10,"events":[{"event_name":"fb_mobile_purchase"}]}],"coarse_cv_configs":"#
        + #"[{"postback_sequence_index":2,"coarse_cv_rules":[{"coarse_cv_value":"high","events":"#
        + #"[{"event_name":"fb_mobile_purchase"}]}]}]}]}"#

    @Test func anImportedMetaConfigurationSendsNoPostbackWhereNoRuleMatched() throws {
        let directory = try TemporaryDirectory()
        let config = directory.url.appendingPathComponent("config.json")
        let schema = directory.url.appendingPathComponent("Meta.skan")
        let journey = directory.url.appendingPathComponent("journey.jsonl")
        try Self.meta.write(to: config, atomically: true, encoding: .utf8)
        try """
        {"hour": 0.5}
        {"hour": 60}

        """.write(to: journey, atomically: true, encoding: .utf8)
        let imported = try CLI.run(["import", "meta", config.path, "-o", schema.path])
        try #require(imported.status == 0, "\(imported.stderr)")
        let text = try String(contentsOf: schema, encoding: .utf8)
        #expect(
            text.contains("coarse window 2 {\n  high    when fb_mobile_purchase\n  nothing otherwise\n}"), "\(text)")
        #expect(text.contains("nothing when conversionValue == v0\n  low     otherwise"), "\(text)")
        // No rule matched in either window: the SDK sent nothing, so only window 1's postback, without a value.
        let postbacks = try CLI.run(
            ["simulate", schema.path, journey.path, "--postbacks", "--users", "1", "--tiers", "1:1", "--seed", "3"])
        try #require(postbacks.status == 0, "\(postbacks.stderr)")
        let lines = postbacks.stdout.split(separator: "\n")
        #expect(lines.count == 1, "\(postbacks.stdout)")
        #expect(lines.first?.contains("\"postback-sequence-index\":0") == true, "\(postbacks.stdout)")
        #expect(!postbacks.stdout.contains("coarse-conversion-value"), "\(postbacks.stdout)")
    }

    @Test func aGA4WindowWithoutACatchAllExportsWithoutOne() throws {
        let directory = try TemporaryDirectory()
        let source = directory.url.appendingPathComponent("ga4.json")
        try #"""
        {"postbackWindowOne": {"conversionValues": [{"fineValue": 5, "coarseValue": "COARSE_VALUE_HIGH",
          "eventMappings": [{"eventName": "purchase", "minEventCount": "1"}]}], "postbackWindowSettingsEnabled": true},
         "postbackWindowTwo": {"conversionValues": [{"coarseValue": "COARSE_VALUE_MEDIUM",
          "eventMappings": [{"eventName": "level_up", "minEventCount": "2"}]}], "postbackWindowSettingsEnabled": true},
         "postbackWindowThree": {"conversionValues": [], "postbackWindowSettingsEnabled": true},
         "applyConversionValues": true}
        """#.write(to: source, atomically: true, encoding: .utf8)
        let schema = directory.url.appendingPathComponent("GA4.skan")
        let imported = try CLI.run(["import", "ga4", source.path, "-o", schema.path])
        try #require(imported.status == 0, "\(imported.stderr)")
        let text = try String(contentsOf: schema, encoding: .utf8)
        #expect(text.contains("nothing otherwise"), "\(text)")
        let exported = try CLI.run(["export", schema.path, "--format", "ga4", "--apply-conversion-values"])
        try #require(exported.status == 0, "\(exported.stderr)")
        #expect(!exported.stdout.contains("first_open"), "\(exported.stdout)")
        #expect(exported.stdout.components(separatedBy: "\"coarseValue\"").count == 3, "\(exported.stdout)")
        // A 'nothing' before rules that send cannot be a first-match list: refused where it is written.
        let early = directory.url.appendingPathComponent("Early.skan")
        try """
        schema Early
        version 2
        event purchase
        event level_up
        coarse {
          nothing when level_up
          high    when purchase
          low     otherwise
        }

        """.write(to: early, atomically: true, encoding: .utf8)
        let refused = try CLI.run(["export", early.path, "--format", "ga4"])
        #expect(refused.status == 1, "\(refused.stdout)")
        #expect(refused.stderr.contains("Early.skan:6:3: error:"), "\(refused.stderr)")
        #expect(refused.stderr.contains("a 'nothing' rule before rules that send"), "\(refused.stderr)")
    }
}
