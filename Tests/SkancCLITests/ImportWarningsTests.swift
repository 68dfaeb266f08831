import Foundation
import SkanTestSupport
import Testing

/// What an import carries differently from the platform, or not at all, is said once, at its key.
@Suite struct ImportWarningsTests {
    static func importing(_ format: String, _ json: String) throws -> CLIResult {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("config.json")
        try json.write(to: file, atomically: true, encoding: .utf8)
        return try CLI.run(["import", format, file.path])
    }

    @Test func metaLocksAreAppliedWithAWarningAndUnknownKeysWarnOnce() throws {
        let result = try Self.importing(
            "meta",
            #"{"data":[{"cutoff_time":2,"default_currency":"USD","bogus":1,"conversion_value_rules":"#
                + #"[{"conversion_value":1,"events":[{"event_name":"a"}]}],"lock_window_rules":"#
                + #"[{"lock_window_type":"time","time":10,"postback_sequence_index":1}]}]}"#)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("lock window 1 when hours >= 10"))
        #expect(
            result.stderr.contains(
                "data[0].lock_window_rules: warning: Meta's SDK parses lock_window_rules and never applies them"))
        // An unknown key: one warning, not a second calling it the SKAdNetwork 3 timer.
        #expect(result.stderr.components(separatedBy: "'bogus'").count == 2, "\(result.stderr)")
        #expect(!result.stderr.contains("'bogus' (the SKAdNetwork 3 timer"))
    }

    /// Rules the schema leaves out (after one that always matches, in a currency the SDK does not keep, a lock
    /// time past the window's end) are each named, where before they vanished.
    @Test func metaRulesLeftOutAreNamed() throws {
        let result = try Self.importing(
            "meta",
            #"{"data":[{"cutoff_time":2,"default_currency":"USD","conversion_value_rules":[{"conversion_value":1,"#
                + #""events":[{"event_name":"a","values":[{"currency":"USD","amount":1}]}]}],"coarse_cv_configs":["#
                + #"{"postback_sequence_index":2,"coarse_cv_rules":[{"coarse_cv_value":"medium","events":[{"event_name":"a"}]},"#
                + #"{"coarse_cv_value":"high","events":[]}]},{"postback_sequence_index":3,"coarse_cv_rules":"#
                + #"[{"coarse_cv_value":"high","events":[{"event_name":"a","values":[{"currency":"EUR","amount":5}]}]}]}],"#
                + #""lock_window_rules":[{"lock_window_type":"time","time":100,"postback_sequence_index":1}]}]}"#)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "(postback_sequence_index 2): warning: the 'high' rule has no events and always matches"))
        #expect(
            result.stderr.contains(
                "(postback_sequence_index 3): warning: the 'high' rule's amounts are all in currencies"))
        #expect(result.stderr.contains("its time 100 is at or past the window's end (hour 48): it never locks"))
    }

    /// Event names the SDK takes with spaces and hyphens are renamed, and the schema says so; a currency that is not
    /// three letters, and a rename that collides, are errors at their key paths, not at generated text.
    @Test func metaNamesAreRenamedAndProblemsSaidAtTheirKeys() throws {
        let rules =
            #"[{"conversion_value":1,"events":[{"event_name":"level-up done","values":[{"currency":"CUR","amount":1}]}]},"#
            + #"{"conversion_value":2,"events":[{"event_name":"2nd session"}]},{"conversion_value":3,"events":"#
            + #"[{"event_name":"OTHER"}]}]"#
        let config = #"{"data":[{"cutoff_time":2,"default_currency":"usd","conversion_value_rules":\#(rules)}]}"#
        let renamed = try Self.importing("meta", config.replacingOccurrences(of: "OTHER", with: "tutorial"))
        #expect(renamed.status == 0, "\(renamed.stderr)")
        #expect(renamed.stdout.contains("# Meta's event 'level-up done' is the schema's 'level_up_done'"))
        #expect(
            renamed.stdout.contains("event _2nd_session")
                && renamed.stdout.contains("event level_up_done_cur value CUR"))
        let collision = try Self.importing("meta", config.replacingOccurrences(of: "OTHER", with: "level_up done"))
        #expect(collision.status == 1)
        #expect(
            collision.stderr.contains(
                "data[0].conversion_value_rules[0].events[0].event_name: error: the event 'level-up done'"))
        let currency = try Self.importing("meta", config.replacingOccurrences(of: "CUR", with: "EU"))
        #expect(currency.status == 1)
        #expect(currency.stderr.contains(".values[0].currency: error: 'EU' is not an ISO 4217 currency code"))
        #expect(!currency.stderr.contains("<imported>"))
    }

    @Test func ga4ApplyConversionValuesIsNotDroppedSilently() throws {
        let exported = try CLI.run([
            "export", "Schemas/Platforms/GA4.skan", "--format", "ga4", "--apply-conversion-values",
        ])
        try #require(exported.status == 0, "\(exported.stderr)")
        let result = try Self.importing("ga4", exported.stdout)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("applyConversionValues: warning: applyConversionValues is true"))
        let plain = try CLI.run(["export", "Schemas/Platforms/GA4.skan", "--format", "ga4"])
        #expect(!(try Self.importing("ga4", plain.stdout)).stderr.contains("applyConversionValues"))
    }
}
