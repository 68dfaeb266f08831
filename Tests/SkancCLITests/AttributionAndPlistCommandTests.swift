import Foundation
import SkanTestSupport
import Testing

/// `skanc attribution` on AdServices answers (Apple's documented example) and iAd dictionaries, and
/// `skanc plist` on XML and binary property lists made here.
@Suite struct AttributionAndPlistCommandTests {
    static let records = "Tests/Fixtures/attribution/records.jsonl"

    @Test func attributionGivesOneShapeForAdServicesAndIAd() throws {
        let result = try CLI.run(["attribution", Self.records])
        #expect(result.status == 1)  // some lines are not records
        let rows = result.stdout.components(separatedBy: "\r\n").dropLast()
        #expect(
            Array(rows) == [
                "line,status,field,source,attributed,organization_id,campaign_id,ad_group_id,keyword_id,ad_id,creative_set_id,click_date,impression_date,claim_type,supply_placement,country_or_region,conversion_type",
                "1,ok,,adservices,true,40669820,542370539,542317095,87675432,542317136,,2020-04-08T17:17:00Z,,Click,,US,Download",
                "2,ok,,adservices,true,40669820,542370539,542317095,87675432,542317136,,,,,,GB,Redownload",
                "3,ok,,adservices,false,,,,,,,,,,,,",
                "4,sample,,iad,true,,1234567890,1234567890,,1234567890,,2016-09-29T11:25:08Z,,,,,",
                "5,ok,,iad,true,7,11,3,4,5,,2018-12-31T23:30:00Z,,,,DE,Download",
                "6,ok,,iad,false,,,,,,,,,,,,",
                "7,ok,,adservices,true,1,2,3,4,,5,,2025-03-01T08:30:00Z,Impression,APPSTORE_TODAY_TAB,JP,PreOrder",
                "9,wrong-type,campaignId,,,,,,,,,,,,,,",
                "10,unknown-format,,,,,,,,,,,,,,,",
                "11,bad-date,clickDate,,,,,,,,,,,,,,",
                "12,not-object,,,,,,,,,,,,,,,",
                "13,not-json,,,,,,,,,,,,,,,",
            ])
    }

    @Test func attributionJSONLinesSummaryAndExitStatus() throws {
        let okOnly = try CLI.run(["attribution", "--format", "jsonl", "--summary"], stdin: "{\"attribution\":false}\n")
        #expect(okOnly.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(okOnly.stdout.utf8)) as? [String: Any]
        #expect(object?["source"] as? String == "adservices")
        #expect(object?["attributed"] as? Bool == false)
        #expect(object?["campaign_id"] is NSNull)
        #expect(okOnly.stderr == "1 records: ok 1\n")
        let two = try CLI.run(["attribution", Self.records, "-"], stdin: "{\"attribution\":true}\n")
        #expect(two.stdout.hasPrefix("file,line,status"))
        #expect(two.stdout.contains("\r\n<stdin>,1,ok,,adservices,true"))
        #expect(try CLI.run(["attribution", "no/such/file"]).status == 1)
        #expect(try CLI.run(["attribution", "--format", "xml"]).status == 64)
        // Deep nesting and a huge line: a status each, no crash.
        let hostile =
            String(repeating: "[", count: 200_000) + "\n{\"x\":\"" + String(repeating: "a", count: 1 << 21) + "\"}\n"
        let result = try CLI.run(["attribution"], stdin: hostile)
        #expect(result.status == 1)
        #expect(result.stdout.contains("\r\n1,not-json,"))
        #expect(result.stdout.contains("\r\n2,line-too-long,"))
    }

    static func write(_ root: [String: Any], format: PropertyListSerialization.PropertyListFormat) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "skanc-plist-\(UUID().uuidString).plist")
        try PropertyListSerialization.data(fromPropertyList: root, format: format, options: 0).write(to: url)
        return url
    }

    static var flawed: [String: Any] {
        [
            "CFBundleName": "Shop",
            "NSAdvertisingAttributionReportEndpoint": "http://example.com",
            "NSUserTrackingUsageDescription": "TODO",
            "SKAdNetworkItems": [
                ["SKAdNetworkIdentifier": "cstr6suwn9.skadnetwork"],
                ["SKAdNetworkIdentifier": "CSTR6SUWN9.skadnetwork"],
                ["SKAdNetworkIdentifier": "cstr6suwn9.skadnetwork"],
                ["SKAdNetworkIdentifier": "v9wttpbfk9.skadnetwrok"],
                ["Other": "x"],
            ],
            "AdNetworkIdentifiers": ["f2d92a.adattributionkit", "Bad ID"],
        ]
    }

    @Test func plistCheckFindsEveryProblemInXMLWithLines() throws {
        let url = try Self.write(Self.flawed, format: .xml)
        defer { try? FileManager.default.removeItem(at: url) }
        let result = try CLI.run(["plist", "check", url.path])
        #expect(result.status == 1)
        let text = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
        func line(of value: String) -> Int { text.firstIndex { $0.contains("<string>\(value)</string>") }! + 1 }
        for (code, value) in [
            ("network-id-uppercase", "CSTR6SUWN9.skadnetwork"), ("network-id-malformed", "v9wttpbfk9.skadnetwrok"),
            ("network-id-malformed", "Bad ID"), ("report-endpoint-not-https", "http://example.com"),
            ("tracking-description-placeholder", "TODO"),
        ] {
            #expect(
                result.stderr.contains("\(url.path):\(line(of: value)): error: ")
                    && result.stderr.contains("[\(code)]\n"), "\(code)\n\(result.stderr)")
        }
        #expect(result.stderr.contains("listed again; remove the repeat [network-id-duplicate]"))
        #expect(result.stderr.contains("error: each item needs a string SKAdNetworkIdentifier [network-id-missing]"))
        #expect(
            result.stderr.contains(
                ": warning: NSAdvertisingAttributionReportEndpoint is set but AttributionCopyEndpoint is not"))
        #expect(result.stderr.hasSuffix("6 errors, 2 warnings\n"), "\(result.stderr)")
    }

    @Test func plistCheckReadsBinaryListsAndPassesACleanOne() throws {
        let binary = try Self.write(Self.flawed, format: .binary)
        defer { try? FileManager.default.removeItem(at: binary) }
        let result = try CLI.run(["plist", "check", binary.path])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "\(binary.path): SKAdNetworkItems[1].SKAdNetworkIdentifier: error: 'CSTR6SUWN9.skadnetwork' is not"))
        let clean = try Self.write(
            [
                "NSAdvertisingAttributionReportEndpoint": "https://example.com",
                "AttributionCopyEndpoint": "https://example.com",
                "NSUserTrackingUsageDescription": "Your data is used to measure which ads brought you to the app.",
                "SKAdNetworkItems": [["SKAdNetworkIdentifier": "cstr6suwn9.skadnetwork"]],
            ], format: .binary)
        defer { try? FileManager.default.removeItem(at: clean) }
        let passed = try CLI.run(["plist", "check", clean.path])
        #expect(passed.status == 0, "\(passed.stderr)")
        #expect(passed.stderr.isEmpty)
        let warned = try Self.write(["CFBundleName": "Shop"], format: .xml)
        defer { try? FileManager.default.removeItem(at: warned) }
        let warnings = try CLI.run(["plist", "check", warned.path])
        #expect(warnings.status == 0)
        #expect(warnings.stderr.contains("[tracking-description-missing]"))
        #expect(warnings.stderr.contains("[report-endpoint-missing]"))
        #expect(warnings.stderr.contains("[skadnetwork-items-missing]"))
        let copyOnly = try Self.write(["AttributionCopyEndpoint": "ftp://example.com"], format: .xml)
        defer { try? FileManager.default.removeItem(at: copyOnly) }
        let copyChecked = try CLI.run(["plist", "check", copyOnly.path])
        #expect(copyChecked.status == 1)
        #expect(copyChecked.stderr.contains("error: 'ftp://example.com' must use https"))
        let notPlist = FileManager.default.temporaryDirectory.appendingPathComponent("skanc-\(UUID().uuidString).plist")
        try Data("not a plist".utf8).write(to: notPlist)
        defer { try? FileManager.default.removeItem(at: notPlist) }
        #expect(try CLI.run(["plist", "check", notPlist.path]).status == 1)
        #expect(try CLI.run(["plist", "check"]).status == 64)
        #expect(try CLI.run(["plist", "lint", notPlist.path]).status == 64)
    }

    @Test func addNetworksMergesWithoutDuplicatesAndKeepsTheFormat() throws {
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            let plist = try Self.write(
                ["CFBundleName": "Shop", "SKAdNetworkItems": [["SKAdNetworkIdentifier": "cstr6suwn9.skadnetwork"]]],
                format: format)
            defer { try? FileManager.default.removeItem(at: plist) }
            let ids = FileManager.default.temporaryDirectory.appendingPathComponent(
                "skanc-ids-\(UUID().uuidString).txt")
            try
                "# networks\nsu67r6k2v3.skadnetwork\n  CSTR6SUWN9.skadnetwork \n\nv9wttpbfk9.skadnetwork\nsu67r6k2v3.skadnetwork\n"
                .write(to: ids, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: ids) }
            let result = try CLI.run(["plist", "add-networks", plist.path, ids.path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("added 2 ad network IDs to SKAdNetworkItems, 2 already present, 3 in all"))
            var written = PropertyListSerialization.PropertyListFormat.xml
            let root =
                try PropertyListSerialization.propertyList(
                    from: Data(contentsOf: plist), options: [], format: &written) as! [String: Any]
            #expect(written == format)
            #expect(root["CFBundleName"] as? String == "Shop")
            let items = (root["SKAdNetworkItems"] as! [[String: String]]).map { $0["SKAdNetworkIdentifier"]! }
            #expect(items == ["cstr6suwn9.skadnetwork", "su67r6k2v3.skadnetwork", "v9wttpbfk9.skadnetwork"])
            // Again: nothing to add, the file is untouched.
            let before = try Data(contentsOf: plist)
            #expect(try CLI.run(["plist", "add-networks", plist.path, ids.path]).stdout.contains("added 0"))
            #expect(try Data(contentsOf: plist) == before)
        }
    }

    @Test func addNetworksTakesAPlistOfIDsAndRefusesAMalformedOne() throws {
        let plist = try Self.write(["CFBundleName": "Shop"], format: .xml)
        defer { try? FileManager.default.removeItem(at: plist) }
        let ids = try Self.write(
            ["SKAdNetworkItems": [["SKAdNetworkIdentifier": "4fzdc2evr5.skadnetwork"]]], format: .xml)
        defer { try? FileManager.default.removeItem(at: ids) }
        #expect(try CLI.run(["plist", "add-networks", plist.path, ids.path]).stdout.contains("added 1"))
        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("skanc-ids-\(UUID().uuidString).txt")
        try "ydx93a7ass.skadnetwork\nnot an id\n".write(to: bad, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: bad) }
        let before = try Data(contentsOf: plist)
        let refused = try CLI.run(["plist", "add-networks", plist.path, bad.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("\(bad.path):2: error: 'not an id': "))
        // That nothing was written is said as a note of the last problem, in the diagnostic format.
        #expect(refused.stderr.contains("note: nothing written to \(plist.path): fix the problems above"))
        #expect(!refused.stderr.contains("\n\(plist.path): nothing written"))
        #expect(try Data(contentsOf: plist) == before)
        // A runaway line is quoted short.
        try (String(repeating: "x", count: 100_000) + "\n").write(to: bad, atomically: true, encoding: .utf8)
        let runaway = try CLI.run(["plist", "add-networks", plist.path, bad.path])
        #expect(runaway.status == 1)
        #expect(runaway.stderr.contains("...' (100000 characters)"))
        #expect(runaway.stderr.count < 600)
    }
}
