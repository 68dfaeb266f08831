import Foundation
import SkanCore
import SkanTestSupport
import Testing

/// `skanc simulate`: the Game schema over a journey that crosses every window's end, `within`, `in window` and
/// both locks; then every kind of bad line.
@Suite struct SimulateCommandTests {
    static let journey = "Tests/Fixtures/journeys/game.jsonl"

    @Test func theJourneyCrossesEveryWindowEdge() throws {
        let result = try CLI.run(["simulate", "Schemas/Game.skan", Self.journey, "--format", "jsonl"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 14)
        #expect(
            lines[0]
                == #"{"line":1,"hour":0.1,"window":1,"fine_value":1,"coarse_value":"medium","sends":true,"lock":false,"sent":true,"state":{"registered":"true","revenue":"none","funnel":"none","levels":"none"}}"#
        )
        let rows = try JSONLines.objects(result.stdout)
        func column(_ key: String) -> [String] { rows.map { "\($0[key] ?? "nil")" } }
        // Windows change at hours 48, 168 and 840 to the hundredth.
        #expect(column("window") == ["1", "1", "1", "1", "1", "1", "1", "2", "2", "2", "3", "3", "3", "<null>"])
        // `lock window 1 after 36 hours`; `lock window 2 when purchase.sum >= 50` (the purchase at hour 50).
        #expect(column("lock") == ["0", "0", "0", "0", "0", "1", "1", "0", "1", "1", "0", "0", "0", "0"])
        // Locked windows take nothing more; unchanged values are not sent again; nothing after hour 840.
        #expect(column("sent") == ["1", "1", "1", "1", "0", "1", "0", "1", "1", "0", "1", "1", "0", "0"])
        // `within 48 hours`: the $40 purchase at hour 50 leaves revenue at mid; `in window`: levels reset at 48.
        let states = rows.map { $0["state"] as? [String: String] ?? [:] }
        #expect(states[8]["revenue"] == "mid")
        #expect(
            states.map { $0["levels"] ?? "" } == [
                "none", "none", "some", "some", "some", "some", "some", "none", "none", "none", "none", "some", "some",
                "some",
            ])
        #expect(rows.last?["coarse_value"] is NSNull)
    }

    @Test func theTextFormatIsATable() throws {
        let result = try CLI.run(["simulate", "Schemas/Game.skan", Self.journey])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first == "line  hour     window  fine  coarse  lock   sent   state")
        #expect(
            lines[6]
                == "6     36       1       61    high    true   sent   registered=true revenue=mid funnel=purchased levels=some"
        )
    }

    @Test func everyBadLineIsAnErrorWithItsLineAndNothingOfItIsApplied() throws {
        let journey = """
            {"hour": 1, "event": "purchase", "value": 30}

            # a comment line, then an annotated one
            {"hour": 2, "event": "sign_up"}   # signed up
            {"hour": 3, "event": "nope"}
            {"hour": 1}
            {"hour": 4, "event": "sign_up", "value": 1}
            {"hour": 4, "event": "purchase"}
            {"hour": 4, "set": {"funnel": "browsed"}}
            {"hour": 4, "colour": "red"}
            [1]
            {"hour": "soon"}
            {"hour": 5, "event": "purchase", "value": -2}
            {"event": "sign_up"}
            {"hour": 6}
            """
        let result = try CLI.run(["simulate", "Schemas/Game.skan", "-", "--format", "jsonl"], stdin: journey)
        #expect(result.status == 1)
        #expect(
            result.stderr.split(separator: "\n") == [
                "<stdin>:5: error: no event named 'nope' in schema Game; its events are sign_up, level_complete, view_item, add_to_cart, purchase, ad_revenue [journey-event]",
                "<stdin>:6: error: hour 1 is before hour 2 of the line before; journey lines go forward in time [journey-hour]",
                "<stdin>:7: error: 'sign_up' is counted, not a value event; remove \"value\" [journey-value]",
                "<stdin>:8: error: 'purchase' is a value event (USD); give its amount: \"value\": 4.99 [journey-value]",
                "<stdin>:9: error: 'funnel' is derived from events and time; the app does not set it [journey-set]",
                "<stdin>:10: error: unknown key \"colour\"; a journey line has hour, event, value and set [journey-json]",
                "<stdin>:11: error: a journey line is a JSON object: {\"hour\": 0.5, \"event\": \"sign_up\"} [journey-json]",
                "<stdin>:12: error: \"hour\" must be a number [journey-json]",
                "<stdin>:13: error: 'purchase' has a negative amount; log refunds as the app does, not as events [journey-value]",
                "<stdin>:14: error: no \"hour\"; every line says when: {\"hour\": 2.5, ...} [journey-json]",
            ])
        // The good lines ran, and the bad ones changed nothing: one purchase, signed up.
        let rows = try JSONLines.objects(result.stdout)
        #expect(rows.map { $0["line"] as? Int } == [1, 4, 15])
        #expect((rows.last?["state"] as? [String: String])?["registered"] == "true")
        #expect((rows.last?["state"] as? [String: String])?["revenue"] == "high")
    }

    @Test func appSetFieldsAreSetByName() throws {
        let journey =
            #"{"hour": 5, "set": {"paymentTier": "high"}}"# + "\n" + #"{"hour": 6, "set": {"paymentTier": "huge"}}"#
        let result = try CLI.run(["simulate", "Schemas/Shop.skan", "-", "--format", "jsonl"], stdin: journey)
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "<stdin>:2: error: 'paymentTier' has no case 'huge'; its cases are none, low, medium, high [journey-set]\n"
        )
        let rows = try JSONLines.objects(result.stdout)
        #expect(rows.first?["fine_value"] as? Int == 6)
        #expect(rows.first?["lock"] as? Bool == true)
    }

    @Test func usageAndUnreadableFiles() throws {
        #expect(try CLI.run(["simulate", "Schemas/Game.skan"]).status == 64)
        #expect(try CLI.run(["simulate", "Schemas/Game.skan", Self.journey, "--format", "csv"]).status == 64)
        let missing = try CLI.run(["simulate", "Schemas/Game.skan", "no/such.jsonl"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "no/such.jsonl: error: no such file; check the path [file-unreadable]\n")
        #expect(try CLI.run(["simulate", "--help"]).stdout.contains("journey-value"))
    }

    /// The trial's shape in one command: the shipped mix (3 networks, 36 campaigns, 4.6% payers, 15%
    /// AdAttributionKit), its postbacks all `ok`, its truth naming each postback's network and framework.
    @Test func theShippedMixIsTheTrialInOneCommand() throws {
        let directory = try TemporaryDirectory()
        let truth = directory.url.appendingPathComponent("truth.jsonl")
        let result = try CLI.run([
            "simulate", "Schemas/Game.skan", "--mix", "Simulations/GameTrial/mix.json", "--postbacks", "--users",
            "3000",
            "--truth", truth.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let truths = try JSONLines.objects(try String(contentsOf: truth, encoding: .utf8))
        let installs = truths.filter { $0["window"] as? Int == 1 }
        #expect(installs.count == 3000 && truths.count == result.stdout.split(separator: "\n").count)
        let campaigns = Set(truths.map { "\($0["ad_network_id"] as? String ?? "") \($0["campaign"] as? String ?? "")" })
        let networks = Set(truths.compactMap { $0["ad_network_id"] as? String })
        #expect(networks.count == 3 && campaigns.count > 30 && campaigns.count <= 36)
        let kit = installs.filter { $0["framework"] as? String == "adattributionkit" }.count
        #expect(kit > 300 && kit < 600, "15% of 3000")
        let postbacks = directory.url.appendingPathComponent("postbacks.jsonl")
        try result.stdout.write(to: postbacks, atomically: true, encoding: .utf8)
        let report = try CLI.run(["report", "Schemas/Game.skan", postbacks.path, "--no-verify", "--format", "json"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        #expect(root["ok"] as? Int == truths.count)
    }

    @Test func aMixIsUsedAsAMixOrRefused() throws {
        let mix = "Simulations/GameTrial/mix.json"
        #expect(try CLI.run(["simulate", "Schemas/Game.skan", "--mix", mix]).status == 64, "needs --postbacks")
        #expect(try CLI.run(["simulate", "Schemas/Game.skan", Self.journey, "--mix", mix, "--postbacks"]).status == 64)
        let tiers = try CLI.run(["simulate", "Schemas/Game.skan", "--mix", mix, "--postbacks", "--tiers", "3:1"])
        #expect(tiers.status == 64 && tiers.stderr.contains("--tiers is the mix file's to give"), "\(tiers.stderr)")
        let directory = try TemporaryDirectory()
        let bad = directory.url.appendingPathComponent("bad.json")
        try #"{"journeys": [{"file": "missing.jsonl"}], "networks": [{"ad_network_id": "n"}], "keep": 1}"#.write(
            to: bad, atomically: true, encoding: .utf8)
        let unknown = try CLI.run(["simulate", "Schemas/Game.skan", "--mix", bad.path, "--postbacks"])
        #expect(unknown.status == 1 && unknown.stderr.contains("unknown key 'keep'") && unknown.stdout.isEmpty)
        #expect(unknown.stderr.contains("[mix-invalid]"))
        try #"{"journeys": [{"file": "missing.jsonl"}], "networks": [{"ad_network_id": "n"}]}"#.write(
            to: bad, atomically: true, encoding: .utf8)
        let missing = try CLI.run(["simulate", "Schemas/Game.skan", "--mix", bad.path, "--postbacks"])
        #expect(missing.status == 1 && missing.stderr.contains("missing.jsonl") && missing.stdout.isEmpty)
        try #"{"hour": 1, "event": "no_such_event"}"#.write(
            to: directory.url.appendingPathComponent("missing.jsonl"), atomically: true, encoding: .utf8)
        let badLine = try CLI.run(["simulate", "Schemas/Game.skan", "--mix", bad.path, "--postbacks"])
        #expect(badLine.status == 1 && badLine.stderr.contains("journey-event") && badLine.stdout.isEmpty)
    }
}

/// `skanc generate` on a schema with events writes its `Event`, `Activity`, `log(_:at:)` and `advance(to:)`.
@Suite struct GenerateEventsTests {
    @Test func generationOfEventSchemasWritesTheirEventsAndActivity() throws {
        let result = try CLI.run(["generate", "Schemas/Game.skan"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        for declaration in [
            "internal enum Event: Swift.Hashable, Swift.Sendable {", "case purchase(amount: Swift.Double)",
            "internal struct Activity: Swift.Hashable, Swift.Sendable, Swift.Codable {",
            "internal mutating func log(_ event: Event, at hour: Swift.Double) {",
            "internal mutating func advance(to hour: Swift.Double) {",
            "internal private(set) var funnel: Funnel",
        ] {
            #expect(result.stdout.contains(declaration), "\(declaration)")
        }
    }
}

/// `skanc table` and `decode` on a schema with events: derived fields say what they are derived from, and a coarse
/// value or lock that turns on events or time is said to, never guessed.
@Suite struct EventSchemaTablesTests {
    @Test func decodeShowsDerivationsAndWhatTurnsOnEvents() throws {
        let result = try CLI.run(["decode", "Schemas/Game.skan", "29"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines[1] == "  registered  true  (Signed up; derived: when sign_up)")
        #expect(
            lines[5]
                == "  coarse: window 1 high, window 2 by events and time (high when purchase.count >= 2; medium when level_complete.count >= 5; low otherwise), window 3 by events and time (high when purchase.count >= 2; medium when level_complete.count >= 5; low otherwise)"
        )
        #expect(
            lines[6]
                == "  lock: window 1 by events and time (hours >= 36), window 2 by events and time (purchase.sum >= 50)"
        )
        let json = try CLI.run(["decode", "Schemas/Game.skan", "29", "--format", "json"]).stdout
        let object = try #require(
            (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])?.first)
        #expect((object["coarse"] as? [Any])?.map { "\($0)" } == ["high", "<null>", "<null>"])
        #expect((object["lock"] as? [Any])?.map { "\($0)" } == ["<null>", "<null>", "0"])
    }

    @Test func tablesLeaveWhatTurnsOnEventsEmptyAndNameDerivations() throws {
        let csv = try CLI.run(["table", "Schemas/Game.skan", "--format", "csv"])
        #expect(csv.status == 0)
        let records = try StrictCSV.records(csv.stdout)
        let header = try #require(records.first)
        let row = try #require(records.first { $0.first == "29" })
        let cell = { (column: String) in row[header.firstIndex(of: column)!] }
        #expect(cell("coarse_window_1") == "high")
        #expect(cell("coarse_window_2") == "")
        #expect(cell("lock_window_1") == "")
        #expect(cell("lock_window_3") == "false")
        let json = try CLI.run(["table", "Schemas/Game.skan", "--format", "json"]).stdout
        #expect(json.contains(#""derived": "buckets count of level_complete in window""#))
        #expect(!(try CLI.run(["table", "Schemas/Shop.skan", "--format", "json"]).stdout.contains("\"derived\"")))
    }
}
