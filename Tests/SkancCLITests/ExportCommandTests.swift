import Foundation
import SkanCompiler
import SkanCore
import SkanSchema
import SkanTestSupport
import Testing

/// `skanc export`: exit codes, refusals, --allow-lossy, and GA4's own evaluation of the export on journeys
/// against `skanc simulate` (Tests/Scripts/ga4_evaluate.py, which parses the export with Google's client library).
@Suite struct ExportCommandTests {
    @Test func exportsGA4AndRefusesBadUsage() throws {
        let ok = try CLI.run(["export", "Schemas/Platforms/GA4.skan", "--format", "ga4"])
        #expect(ok.status == 0)
        #expect(ok.stderr.isEmpty)
        #expect(ok.stdout.hasPrefix("{\n  \"postbackWindowOne\": {\n    \"conversionValues\": ["))
        #expect(try CLI.run(["export", "Schemas/Platforms/GA4.skan"]).status == 64)
        #expect(try CLI.run(["export", "Schemas/Platforms/GA4.skan", "--format", "meta"]).status == 64)
        #expect(try CLI.run(["export", "--format", "ga4"]).status == 64)
        // MMP uploads whose layout no vendor publishes are refused, saying why and what to use.
        for unwritten in ["appsflyer-csv", "tenjin-csv"] {
            let refused = try CLI.run(["export", "Schemas/Platforms/GA4.skan", "--format", unwritten])
            #expect(refused.status == 64 && refused.stderr.contains("publishes no column layout"), "\(refused.stderr)")
            #expect(refused.stderr.contains("--format branch") && refused.stdout.isEmpty)
        }
        let help = try CLI.run(["export", "--help"])
        #expect(help.status == 0 && help.stdout.contains("EXIT STATUS"))
    }

    @Test func aSchemaThatCannotBeSaidIsRefusedNamingWhatAndWhere() throws {
        let refused = try CLI.run(["export", "Schemas/Platforms/MetaSDK.skan", "--format", "ga4"])
        #expect(refused.status == 1)
        #expect(refused.stdout.isEmpty)
        #expect(
            refused.stderr.contains(
                "Schemas/Platforms/MetaSDK.skan:15:7: error: GA4 has one currency per property and the events have JPY, USD (window 1); give every value event the property's currency, or export with --allow-lossy to write it as if they were one [export-currency]"
            ))
        #expect(refused.stderr.contains("[export-limit]"))
        #expect(refused.stderr.contains("fine value"))
        let lossy = try CLI.run(["export", "Schemas/Platforms/MetaSDK.skan", "--format", "ga4", "--allow-lossy"])
        #expect(lossy.status == 0)
        #expect(lossy.stderr.contains("warning: GA4 has one currency per property"))
        // `> 100` of amounts summed in whole cents (yen) is `>= 100.01` (`>= 101`) exactly: no bound is lost.
        #expect(!lossy.stderr.contains("[export-bound]"))
        #expect(lossy.stdout.contains("\"minEventValue\": 100.01") && lossy.stdout.contains("\"minEventValue\": 101\n"))
    }

    @Test func branchNeedsTheAppIDAndTakesItsTimeForm() throws {
        let path = "Tests/SkanPlatformsTests/Fixtures/BranchExact.skan"
        #expect(try CLI.run(["export", path, "--format", "branch"]).status == 64)
        let badTime = try CLI.run(["export", path, "--format", "branch", "--app-id", "1", "--updated", "yesterday"])
        #expect(badTime.status == 64 && badTime.stderr.contains("yyyy-mm-dd hh:mm:ss.sss"))
        // The form, and a date the calendar has: no February 30, no year 0000, February 29 in leap years only.
        for time in ["2026-02-30 09:30:00.000", "0000-01-01 00:00:00.000", "2026-02-29 00:00:00.000"] {
            let result = try CLI.run(["export", path, "--format", "branch", "--app-id", "1", "--updated", time])
            #expect(result.status == 64, "\(time)")
        }
        let leapDay = ["export", path, "--format", "branch", "--app-id", "1", "--updated", "2028-02-29 23:59:59.999"]
        #expect(try CLI.run(leapDay).status == 0)
        let elsewhere = ["export", path, "--format", "ga4", "--updated", "2026-12-04 09:30:00.000"]
        #expect(try CLI.run(elsewhere).status == 64)
        let now = try CLI.run(["export", path, "--format", "branch", "--app-id", "1"])
        #expect(now.status == 0 && now.stderr.isEmpty)
        #expect(now.stdout.hasPrefix("{\n  \"app-id\": 1,\n  \"update\": \"20"))
        let refused = try CLI.run(["export", "Schemas/Platforms/GA4.skan", "--format", "branch", "--app-id", "1"])
        #expect(refused.status == 1 && refused.stdout.isEmpty)
        #expect(refused.stderr.contains("[export-bound]") && refused.stderr.contains("[export-shape]"))
    }

    @Test func writesTheFileGiven() throws {
        let directory = try TemporaryDirectory()
        let output = directory.url.appendingPathComponent("schema.json").path
        let result = try CLI.run(["export", "Schemas/Platforms/GA4.skan", "--format", "ga4", "-o", output])
        #expect(result.status == 0)
        #expect(try String(contentsOfFile: output, encoding: .utf8).hasPrefix("{"))
    }

    @Test(arguments: ShippedSchemas.all)
    func ga4ComputesWhatTheAppSends(_ path: String) throws {
        let export = try CLI.run(["export", path, "--format", "ga4"])
        guard export.status == 0 else {
            // Not exportable exactly: refused, and said why.
            #expect(export.status == 1 && export.stderr.contains("error:"), "\(path)")
            return
        }
        let directory = try TemporaryDirectory()
        let schemaFile = directory.url.appendingPathComponent("schema.json")
        try export.stdout.write(to: schemaFile, atomically: true, encoding: .utf8)
        try Self.compare(schemaPath: path, ga4File: schemaFile, in: directory, context: path)
    }

    /// Runs `journeys` journeys through `skanc simulate` on `schemaPath` and through GA4's evaluator on
    /// `ga4File`, and compares every line.
    static func compare(
        schemaPath: String, ga4File: URL, in directory: TemporaryDirectory, context: String,
        evaluator: String = "ga4_evaluate.py", library: String = "google-analytics-admin"
    ) throws {
        let schema = try #require(
            SchemaCompiler.compile(try String(contentsOfFile: schemaPath, encoding: .utf8)).schema, "\(context)")
        let journeys = try (0..<3).map { seed in
            let journeyFile = directory.url.appendingPathComponent("journey\(seed).jsonl")
            try RandomJourney.text(for: schema, seed: seed).write(to: journeyFile, atomically: true, encoding: .utf8)
            return journeyFile
        }
        // One run of the evaluator for every journey: Google's library takes a second to import.
        let evaluated = try ChildProcess.run(
            try ChildProcess.onPath("python3"),
            [Paths.file("Tests/Scripts/\(evaluator)").path, ga4File.path] + journeys.map(\.path))
        try #require(
            evaluated.status == 0,
            "\(evaluator): \(evaluated.stderr) (\(library) is installed by `bash .ci/run`, or `python3 -m pip install \(library)`)"
        )
        let evaluatedLines = try JSONLines.objects(evaluated.stdout)
        for (seed, journeyFile) in journeys.enumerated() {
            let simulated = try CLI.run(["simulate", schemaPath, journeyFile.path, "--format", "jsonl"])
            try #require(simulated.status == 0, "\(simulated.stderr)")
            let expected = try JSONLines.objects(simulated.stdout)
            let actual = evaluatedLines.filter { $0["journey"] as? Int == seed }
            #expect(expected.count == actual.count, "\(context)")
            for (want, got) in zip(expected, actual) {
                let line = "\(context) line \(want["line"] ?? "?")"
                #expect(want["window"] as? Int == got["window"] as? Int, "\(line)")
                if want["window"] as? Int == 1 {
                    #expect(want["fine_value"] as? Int == got["fine_value"] as? Int, "\(line)")
                }
                // Where no entry holds, the platform sends nothing, and so does the schema (a `nothing` rule).
                if let updated = got["updated"] as? Bool { #expect(want["sends"] as? Bool == updated, "\(line)") }
                #expect(want["coarse_value"] as? String == got["coarse_value"] as? String, "\(line)")
                #expect(want["lock"] as? Bool == got["lock"] as? Bool, "\(line)")
            }
        }
        #expect(evaluatedLines.allSatisfy { ($0["journey"] as? Int).map { (0..<3).contains($0) } == true })
    }

    /// A GA4 schema imported means what GA4 computes from it: the fixture, and each exact export.
    @Test(
        arguments: ["Tests/SkanPlatformsTests/Fixtures/ga4-priorities.json"] + [
            "Schemas/Platforms/Datalyr.skan", "Schemas/Platforms/GA4.skan",
        ])
    func anImportedSchemaComputesWhatGA4Computes(_ source: String) throws {
        let directory = try TemporaryDirectory()
        var ga4File = Paths.packageRoot.appendingPathComponent(source)
        if source.hasSuffix(".skan") {
            ga4File = directory.url.appendingPathComponent("export.json")
            let export = try CLI.run(["export", source, "--format", "ga4", "-o", ga4File.path])
            try #require(export.status == 0, "\(export.stderr)")
        }
        let schemaFile = directory.url.appendingPathComponent("Imported.skan")
        let imported = try CLI.run(["import", "ga4", ga4File.path, "-o", schemaFile.path])
        try #require(imported.status == 0, "\(imported.stderr)")
        #expect(try CLI.run(["check", schemaFile.path]).stderr.isEmpty)
        try Self.compare(schemaPath: schemaFile.path, ga4File: ga4File, in: directory, context: source)
    }

    /// A common GA4 pattern: one fine value from two entries with different coarse values and locks. The import
    /// exports again exactly (the lock reads the fine value, so no entry is negated into a strict bound), and
    /// the export computes what the original computes.
    @Test func aValueSharedByEntriesWithOtherLocksRoundTrips() throws {
        let directory = try TemporaryDirectory()
        let original = Paths.file("Tests/SkanPlatformsTests/Fixtures/ga4-shared-values.json")
        let schemaFile = directory.url.appendingPathComponent("Imported.skan")
        let imported = try CLI.run(["import", "ga4", original.path, "-o", schemaFile.path])
        try #require(imported.status == 0, "\(imported.stderr)")
        #expect(
            try String(contentsOf: schemaFile, encoding: .utf8).contains(
                "lock window 1 when conversionValue == v10 and (level_up)"))
        try Self.compare(schemaPath: schemaFile.path, ga4File: original, in: directory, context: "original")
        let again = directory.url.appendingPathComponent("again.json")
        let export = try CLI.run(["export", schemaFile.path, "--format", "ga4", "-o", again.path])
        try #require(export.status == 0, "\(export.stderr)")
        try Self.compare(schemaPath: schemaFile.path, ga4File: again, in: directory, context: "exported again")
    }

    /// Google Ads' reading of the export (Tests/Scripts/google_ads_evaluate.py, which parses it with Google's
    /// client library) gives, on journeys, exactly one fine value and one coarse value, those the app sends.
    @Test func googleAdsDescribesWhatTheAppSends() throws {
        let directory = try TemporaryDirectory()
        let path = "Tests/SkanPlatformsTests/Fixtures/GoogleAdsExact.skan"
        let exportFile = directory.url.appendingPathComponent("google-ads.json")
        let export = try CLI.run([
            "export", path, "--format", "google-ads", "--app-id", "1234567890", "--resource-name",
            "customers/1234567890/customerSkAdNetworkConversionValueSchemas/42", "-o", exportFile.path,
        ])
        try #require(export.status == 0, "\(export.stderr)")
        // The resource an update operation names, which Google's library reads below.
        #expect(
            try String(contentsOf: exportFile, encoding: .utf8).contains(
                #""resourceName": "customers/1234567890/customerSkAdNetworkConversionValueSchemas/42""#))
        for bad in ["customers/1/x/2", "customers/a/customerSkAdNetworkConversionValueSchemas/2"] {
            #expect(
                try CLI.run(["export", path, "--format", "google-ads", "--app-id", "1", "--resource-name", bad]).status
                    == 64)
        }
        try Self.compare(
            schemaPath: path, ga4File: exportFile, in: directory, context: path, evaluator: "google_ads_evaluate.py",
            library: "google-ads")
        #expect(try CLI.run(["export", path, "--format", "google-ads"]).status == 64)
        let refused = try CLI.run([
            "export", "Schemas/Platforms/GoogleAds.skan", "--format", "google-ads", "--app-id", "1",
        ])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains("[export-shape]")
                && refused.stderr.contains("cannot say that 'purchase' was not logged"))
    }

    /// Strict amount bounds export exactly to Google Ads' inclusive ranges, since amounts are summed in whole minor
    /// units: `..<10` USD is at most 9.99, `> 1000` JPY at least 1001, `> 0.5` KWD at least 0.501; Google's
    /// reading agrees with `skanc simulate` on journeys whose amounts sit on and one unit beside every bound.
    @Test func strictAmountsExportInWholeMinorUnits() throws {
        let directory = try TemporaryDirectory()
        let path = "Tests/SkanPlatformsTests/Fixtures/GoogleAdsCents.skan"
        let exportFile = directory.url.appendingPathComponent("google-ads.json")
        let export = try CLI.run(["export", path, "--format", "google-ads", "--app-id", "1", "-o", exportFile.path])
        try #require(export.status == 0, "\(export.stderr)")
        #expect(export.stderr.isEmpty)
        let json = try String(contentsOf: exportFile, encoding: .utf8)
        for bound in [#""maxEventRevenue": 9.99"#, #""minEventRevenue": 0.501"#, #""maxEventRevenue": 49.98"#] {
            #expect(json.contains(bound), "\(bound)")
        }
        try Self.compare(
            schemaPath: path, ga4File: exportFile, in: directory, context: path, evaluator: "google_ads_evaluate.py",
            library: "google-ads")
    }

    /// Every shipped schema's export, lossy where it must be, is what Google's client libraries read strictly:
    /// the shapes hold for every schema, not only for those that export exactly.
    @Test(arguments: ShippedSchemas.all)
    func googlesLibrariesReadEveryExport(_ path: String) throws {
        let directory = try TemporaryDirectory()
        let journey = directory.url.appendingPathComponent("empty.jsonl")
        try "{\"hour\": 1}\n".write(to: journey, atomically: true, encoding: .utf8)
        for (format, script) in [("ga4", "ga4_evaluate.py"), ("google-ads", "google_ads_evaluate.py")] {
            let file = directory.url.appendingPathComponent("\(format).json")
            let export = try CLI.run(
                ["export", path, "--format", format, "--app-id", "1234567890", "--allow-lossy", "-o", file.path])
            try #require(export.status == 0, "\(path): \(export.stderr)")
            let read = try ChildProcess.run(
                try ChildProcess.onPath("python3"),
                [Paths.file("Tests/Scripts/\(script)").path, file.path, journey.path])
            #expect(read.status == 0, "\(path) as \(format): \(read.stderr)")
            if format == "google-ads" {
                #expect(try Self.emptyHourRanges(in: Data(contentsOf: file)) == 0, "\(path)")
            }
        }
    }

    /// A value none of whose hours fall in its window is left out, never written as an empty range.
    @Test func googleAdsLeavesOutWhatTheWindowCannotReach() throws {
        let directory = try TemporaryDirectory()
        let schema = directory.url.appendingPathComponent("Days.skan")
        try """
        schema Days version 2
        field days at bits 0...2 "Days since install" count of days
        reserved bits 3...5
        coarse { low otherwise }
        """.write(to: schema, atomically: true, encoding: .utf8)
        let export = try CLI.run(["export", schema.path, "--format", "google-ads", "--app-id", "1"])
        try #require(export.status == 0, "\(export.stderr)")
        #expect(try Self.emptyHourRanges(in: Data(export.stdout.utf8)) == 0)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any])
        let fine = (root["schema"] as? [String: Any])?["fineGrainedConversionValueMappings"] as? [[String: Any]]
        // Days 0 and 1 fall in window one (hours 0-47); days 2-7 never do.
        #expect(fine?.compactMap { $0["fineGrainedConversionValue"] as? Int }.sorted() == [0, 1])
    }

    /// The mappings anywhere in a Google Ads export whose minimum hour is past its maximum.
    static func emptyHourRanges(in json: Data) throws -> Int {
        func count(_ value: Any) -> Int {
            if let object = value as? [String: Any] {
                let empty =
                    (object["minTimePostInstallHours"] as? String).flatMap(Int.init).map { low in
                        (object["maxTimePostInstallHours"] as? String).flatMap(Int.init).map { low > $0 } ?? false
                    } ?? false
                return (empty ? 1 : 0) + object.values.map(count).reduce(0, +)
            }
            return (value as? [Any])?.map(count).reduce(0, +) ?? 0
        }
        return count(try JSONSerialization.jsonObject(with: json))
    }

    @Test func importRefusesWhatIsNotTheResource() throws {
        let directory = try TemporaryDirectory()
        let bad = directory.url.appendingPathComponent("bad.json")
        try #"{"postbackWindowOne": {"conversionValues": [{"fineValue": "x"}]}}"#.write(
            to: bad, atomically: true, encoding: .utf8)
        let result = try CLI.run(["import", "ga4", bad.path])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("expected a whole number [import-json]"))
        #expect(result.stderr.contains("postbackWindowOne.conversionValues[0].fineValue"))
        #expect(try CLI.run(["import", "facebook", bad.path]).status == 64)
        #expect(try CLI.run(["import", "meta", bad.path]).status == 1)
        #expect(try CLI.run(["import", "ga4"]).status == 64)
        #expect(try CLI.run(["import", "ga4", directory.url.appendingPathComponent("none.json").path]).status == 1)
        #expect(try CLI.run(["import", "ga4", bad.path, "--currency", "dollars"]).status == 64)
    }

    /// Meta's configuration imported means what Meta's SDK computes (Tests/Scripts/meta_evaluate.py, the SDK's
    /// rule engine): after every logged event, the same fine value in window 1, whether an update was sent in the
    /// window, the coarse value and lock. Hours stay
    /// off the windows' ends, where the SDK counts the end hour in the earlier postback.
    /// `meta-names.json`: event names with spaces, hyphens and a leading digit, two currencies, coarse rules in
    /// every postback and a cutoff past window one.
    /// `meta-sdk/`: the configurations of the SDK's own tests that import (the folder's README names each source).
    @Test(arguments: [
        "meta-config.json", "meta-names.json", "meta-sdk/parse-rules.json",
        "meta-sdk/event-set-with-coarse-values.json",
        "meta-sdk/currency-set-with-coarse-values.json", "meta-sdk/lock-window-time-rules.json",
        "meta-sdk/lock-window-event-rules.json", "meta-sdk/rule-match.json", "meta-sdk/rule-valid-cases.json",
        "meta-sdk/coarse-cv-config.json",
    ])
    func anImportedMetaConfigurationComputesWhatMetasSDKComputes(_ name: String) throws {
        let directory = try TemporaryDirectory()
        let config = Paths.packageRoot.appendingPathComponent("Tests/SkanPlatformsTests/Fixtures/\(name)")
        let schemaFile = directory.url.appendingPathComponent("Meta.skan")
        let imported = try CLI.run(["import", "meta", config.path, "-o", schemaFile.path])
        try #require(imported.status == 0, "\(imported.stderr)")
        if name == "meta-config.json" { #expect(imported.stderr.contains("'timer_buckets'")) }
        let schema = try #require(
            SchemaCompiler.compile(try String(contentsOfFile: schemaFile.path, encoding: .utf8)).schema)
        let amounts = JourneyAmounts.edges(of: schema) + [10.01, 100.01, 110.01]
        for seed in 0..<6 {
            var generator = SplitMix64(seed: UInt64(seed) &+ 0x3E7A)
            var hour = 0.0
            var lines: [String] = []
            for _ in 0..<60 {
                hour += [0.3, 2.7, 11.1, 37.9].randomElement(using: &generator)!
                guard hour < 839 else { break }
                let event = schema.events.randomElement(using: &generator)!
                // Amounts as an app logs them, in whole units of the event's currency (100.01 JPY is 100 yen).
                let amount = MinorUnitSum.wholeAtOrBelow(
                    amounts.randomElement(using: &generator)!, unitsPerWhole: event.unitsPerWhole)
                lines.append(
                    event.hasValue
                        ? "{\"hour\": \(hour), \"event\": \"\(event.name)\", \"value\": \(amount)}"
                        : "{\"hour\": \(hour), \"event\": \"\(event.name)\"}")
            }
            let journeyFile = directory.url.appendingPathComponent("journey\(seed).jsonl")
            try (lines.joined(separator: "\n") + "\n").write(to: journeyFile, atomically: true, encoding: .utf8)
            let simulated = try CLI.run(["simulate", schemaFile.path, journeyFile.path, "--format", "jsonl"])
            try #require(simulated.status == 0, "\(simulated.stderr)")
            let meta = try ChildProcess.run(
                try ChildProcess.onPath("python3"),
                [Paths.file("Tests/Scripts/meta_evaluate.py").path, config.path, journeyFile.path])
            try #require(meta.status == 0, "meta_evaluate.py: \(meta.stderr)")
            let expected = try JSONLines.objects(simulated.stdout)
            let actual = try JSONLines.objects(meta.stdout)
            #expect(expected.count == actual.count)
            for (want, got) in zip(expected, actual) {
                let line = "seed \(seed) line \(want["line"] ?? "?")"
                #expect(want["window"] as? Int == got["window"] as? Int, "\(line)")
                if want["window"] as? Int == 1 {
                    #expect(want["fine_value"] as? Int == got["fine_value"] as? Int, "\(line)")
                }
                // The SDK updates only when a rule matches; the schema sends nothing where none does.
                #expect(want["sends"] as? Bool == got["updated"] as? Bool, "\(line)")
                // In postback 1 the SDK's fine value update carries no coarse value; a schema's carries low.
                let fineAlone =
                    want["window"] as? Int == 1 && got["coarse_value"] is NSNull && got["updated"] as? Bool == true
                #expect(
                    want["coarse_value"] as? String == (fineAlone ? "low" : got["coarse_value"] as? String), "\(line)")
                #expect(want["lock"] as? Bool == got["lock"] as? Bool, "\(line)")
            }
        }
    }

    /// The SDK's test configurations a schema cannot mean, refused at their key.
    @Test(arguments: [
        ("meta-sdk/event-set-eu.json", "values[0].currency: error: 'EU' is not an ISO 4217 currency code"),
        ("meta-sdk/sample-fine.json", "cutoff_time: error: cutoff_time 1"),
        ("meta-sdk/sample-coarse.json", "cutoff_time: error: cutoff_time 1"),
    ])
    func theSDKsOtherTestConfigurationsAreRefusedAtTheirKey(_ name: String, _ message: String) throws {
        let config = Paths.packageRoot.appendingPathComponent("Tests/SkanPlatformsTests/Fixtures/\(name)")
        let refused = try CLI.run(["import", "meta", config.path])
        #expect(refused.status == 1 && refused.stdout.isEmpty, "\(refused.stdout)")
        #expect(refused.stderr.contains(message), "\(refused.stderr)")
    }

}
