import Foundation
import SkanTestSupport
import Testing

/// `skanc import google-ads`: the resource read strictly, and the schema it writes means what the resource
/// describes, as Google's library reads it (`Tests/Scripts/google_ads_evaluate.py`).
@Suite struct GoogleAdsImportTests {
    /// The exact fixture's export, imported, agrees line by line with what Google's library reads from the export
    /// (fine value, coarse values, locks).
    @Test func anImportedExportMeansWhatGooglesLibraryReads() throws {
        let directory = try TemporaryDirectory()
        let exported = directory.url.appendingPathComponent("google-ads.json")
        let export = try CLI.run([
            "export", "Tests/SkanPlatformsTests/Fixtures/GoogleAdsExact.skan", "--format", "google-ads", "--app-id",
            "1234567890", "--resource-name", "customers/1234567890/customerSkAdNetworkConversionValueSchemas/42",
            "-o", exported.path,
        ])
        try #require(export.status == 0, "\(export.stderr)")
        let schema = directory.url.appendingPathComponent("Imported.skan")
        let imported = try CLI.run(["import", "google-ads", exported.path, "-o", schema.path])
        try #require(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.isEmpty, "\(imported.stderr)")
        let text = try String(contentsOf: schema, encoding: .utf8)
        #expect(text.contains("  v27      = 27 when hours >= 24 and hours < 48 and session.count >= 6"), "\(text)")
        #expect(text.contains("lock window 2 when session"), "\(text)")
        try ExportCommandTests.compare(
            schemaPath: schema.path, ga4File: exported, in: directory, context: "imported",
            evaluator: "google_ads_evaluate.py", library: "google-ads")
    }

    /// Ranges nothing lies in (a lower bound above the upper one, in hours, counts or revenue) and negative
    /// bounds are errors at their key path, never a crash; the second mapping would meet the first.
    @Test func emptyAndNegativeRangesAreErrorsAtTheirPath() throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("schema.json")
        try #"""
        {"schema": {"appId": "1", "fineGrainedConversionValueMappings": [
          {"fineGrainedConversionValue": 1, "conversionValueMapping": {"maxTimePostInstallHours": 24,
            "mappedEvents": [{"mappedEventName": "purchase", "eventRevenueRange": {"minEventRevenue": 50, "maxEventRevenue": 10}}]}},
          {"fineGrainedConversionValue": 2, "conversionValueMapping": {"minTimePostInstallHours": 40, "maxTimePostInstallHours": 4,
            "mappedEvents": [{"mappedEventName": "purchase", "eventOccurrenceRange": {"minEventCount": "5", "maxEventCount": "2"}}]}},
          {"fineGrainedConversionValue": 3, "conversionValueMapping": {"maxTimePostInstallHours": 24,
            "mappedEvents": [{"mappedEventName": "purchase", "eventCounter": -1}]}}]}}
        """#.write(to: file, atomically: true, encoding: .utf8)
        let result = try CLI.run(["import", "google-ads", file.path])
        #expect(result.status == 1, "\(result.stderr)")
        let mappings = "schema.fineGrainedConversionValueMappings"
        for expected in [
            "\(mappings)[0].conversionValueMapping.mappedEvents[0].eventRevenueRange: error: minEventRevenue 50 is "
                + "above maxEventRevenue 10",
            "\(mappings)[1].conversionValueMapping.mappedEvents[0].eventOccurrenceRange: error: minEventCount 5 is "
                + "above maxEventCount 2",
            "\(mappings)[1].conversionValueMapping: error: minTimePostInstallHours 40 is above maxTimePostInstallHours 4",
            "\(mappings)[2].conversionValueMapping.mappedEvents[0].eventCounter: error: -1 is below 0",
        ] {
            #expect(result.stderr.contains(expected), "\(expected)\n\(result.stderr)")
        }
    }

    /// `measurementWindowHours` is hours after the install: none, a negative count or one past Apple's last
    /// conversion window (35 days) is an error at its key path, not ignored.
    @Test(arguments: ["-1", "0", "1000000000", "841"])
    func aMeasurementWindowOutsideTheWindowsIsAnError(_ hours: String) throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("schema.json")
        try #"""
        {"schema": {"appId": "1", "measurementWindowHours": \#(hours), "fineGrainedConversionValueMappings": [
          {"fineGrainedConversionValue": 1, "conversionValueMapping": {"maxTimePostInstallHours": 24,
            "mappedEvents": [{"mappedEventName": "purchase"}]}}]}}
        """#.write(to: file, atomically: true, encoding: .utf8)
        let result = try CLI.run(["import", "google-ads", file.path])
        #expect(result.status == 1 && result.stdout.isEmpty, "\(result.stdout)")
        #expect(
            result.stderr.contains("schema.measurementWindowHours: error: \(hours) is outside 1...840"),
            "\(result.stderr)")
        // As CI reads it: one JSON object with the key path as its subject.
        let json = try CLI.run(["import", "google-ads", file.path, "--error-format", "json"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stderr.utf8)) as? [String: Any], "\(json.stderr)")
        #expect(
            object["subject"] as? String == "schema.measurementWindowHours"
                && object["code"] as? String == "import-json")
        try #"{"schema": {"appId": "1", "measurementWindowHours": 48, "fineGrainedConversionValueMappings": []}}"#
            .write(to: file, atomically: true, encoding: .utf8)
        #expect(try !CLI.run(["import", "google-ads", file.path]).stderr.contains("measurementWindowHours"))
    }

    /// As Google's libraries read JSON: a byte order mark is no part of it, a key given twice is refused at its
    /// path, text that is not JSON is an error at its line and column, and a value of the wrong type is said once
    /// (not also "required").
    @Test func theJSONIsReadAsGooglesLibrariesReadIt() throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("schema.json")
        func imported(_ text: [UInt8]) throws -> CLIResult {
            try Data(text).write(to: file)
            return try CLI.run(["import", "google-ads", file.path])
        }
        let mapping = #"{"maxTimePostInstallHours": 24, "mappedEvents": [{"mappedEventName": "purchase"}]}"#
        let valid =
            #"{"schema": {"appId": "1", "fineGrainedConversionValueMappings": ["#
            + #"{"fineGrainedConversionValue": 1, "conversionValueMapping": \#(mapping)}]}}"#
        let marked = try imported([0xEF, 0xBB, 0xBF] + Array(valid.utf8))
        #expect(marked.status == 0 && marked.stderr.isEmpty, "\(marked.stderr)")
        let twice = try imported(Array(#"{"schema": {"appId": "1"}, "schema": {"appId": "2"}}"#.utf8))
        #expect(twice.status == 1 && twice.stderr.contains("schema: error: 'schema' is given twice"), "\(twice.stderr)")
        let broken = try imported(Array("{\"schema\":\n {\"appId\": \"1\",,}}".utf8))
        #expect(broken.stderr.contains("schema.json:2:16: error: not JSON"), "\(broken.stderr)")
        let fractional = try imported(Array(valid.replacingOccurrences(of: "Value\": 1,", with: "Value\": 6.5,").utf8))
        #expect(fractional.stderr.contains("expected a whole number"), "\(fractional.stderr)")
        #expect(!fractional.stderr.contains("is required"), "\(fractional.stderr)")
    }

    /// A currency code is checked before it is written into the schema: text of another shape would be pasted
    /// into it (`value USD # x`).
    @Test func aCurrencyCodeIsThreeLetters() throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("schema.json")
        try #"""
        {"schema": {"appId": "1", "fineGrainedConversionValueMappings": [
          {"fineGrainedConversionValue": 1, "conversionValueMapping": {"maxTimePostInstallHours": 24,
            "mappedEvents": [{"mappedEventName": "purchase", "currencyCode": "USD # x",
              "eventRevenueRange": {"minEventRevenue": 1}}]}}]}}
        """#.write(to: file, atomically: true, encoding: .utf8)
        let result = try CLI.run(["import", "google-ads", file.path])
        #expect(result.status == 1 && result.stdout.isEmpty, "\(result.stdout)")
        #expect(
            result.stderr.contains(
                "mappedEvents[0].currencyCode: error: 'USD # x' is not an ISO 4217 currency code"), "\(result.stderr)")
    }

    @Test func theResourceIsReadStrictlyAndOverlapsAreNamed() throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("schema.json")
        try #"""
        {"schema": {"appId": "1", "fineGrainedConversionValueMappings": [
          {"fineGrainedConversionValue": 5, "conversionValueMapping": {"maxTimePostInstallHours": "47",
            "mappedEvents": [{"mappedEventName": "purchase", "eventOccurrenceRange": {"minEventCount": "1"}}]}},
          {"fineGrainedConversionValue": 9, "conversionValueMapping": {"maxTimePostInstallHours": "47",
            "mappedEvents": [{"mappedEventName": "purchase", "eventOccurrenceRange": {"minEventCount": "2"}}]}}]}}
        """#.write(to: file, atomically: true, encoding: .utf8)
        let overlapping = try CLI.run(["import", "google-ads", file.path])
        #expect(overlapping.status == 0, "\(overlapping.stderr)")
        #expect(
            overlapping.stderr.contains(
                "schema.fineGrainedConversionValueMappings[1].conversionValueMapping: warning: the mappings of fine value 5 and fine value 9 can both hold"
            ), "\(overlapping.stderr)")
        #expect(overlapping.stdout.contains("nothing when conversionValue == unmapped"))
        try #"""
        {"schema": {"fineGrainedConversionValueMappings": [{"fineGrainedConversionValue": 70,
          "conversionValueMapping": {"mappedEvents": [{"mappedEventName": "a", "eventCount": 1}]}}]}}
        """#.write(to: file, atomically: true, encoding: .utf8)
        let refused = try CLI.run(["import", "google-ads", file.path])
        #expect(refused.status == 1 && refused.stdout.isEmpty)
        #expect(
            refused.stderr.contains(
                "schema.fineGrainedConversionValueMappings[0].fineGrainedConversionValue: error: 70 is outside 0...63"),
            "\(refused.stderr)")
        #expect(
            refused.stderr.contains(
                "schema.fineGrainedConversionValueMappings[0].conversionValueMapping.mappedEvents[0]: error: 'eventCount' is not a field"
            ), "\(refused.stderr)")
        #expect(try CLI.run(["import", "google-ad", file.path]).status == 64)
    }
}

/// Every resource in Fuzz/Regressions/google-ads, imported or refused with errors at key paths, never a crash.
@Suite struct GoogleAdsFuzzRegressionTests {
    @Test func googleAdsInputsStillPass() throws {
        for url in try Paths.regressionInputs("google-ads") {
            let result = try CLI.run(["import", "google-ads", url.path])
            #expect(result.status == 0 || (result.status == 1 && result.stderr.contains("error:")), "\(result.stderr)")
        }
    }
}
