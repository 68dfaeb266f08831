import Foundation
import SkanCore
import SkanTestSupport
import Testing

/// `skanc report --by install_day`: installs by day of first launch from the day each window-1 postback arrived.
/// Over random journeys whose first launches, locks and Apple's send delays are known, every day's true installs
/// lie inside its bounds, and so do the installs up to each day; the allocation adds up to the installs.
@Suite struct InstallDayCohortTests {
    /// A store segment of window-1 postbacks of network `n` received at `times` (Unix seconds).
    static func segment(_ times: [Int], in directory: URL) throws -> String {
        let lines = times.indices.map { index in
            ReportCheckTests.template.replacingOccurrences(of: "NETWORK", with: "n.skadnetwork")
                .replacingOccurrences(of: "SOURCE", with: "5239")
                .replacingOccurrences(of: "ID", with: String(format: "6aafb7a5-0170-41b5-bbe4-%012d", index))
                .replacingOccurrences(of: "VALUE", with: #""conversion-value":4,"#)
        }
        let path = directory.appendingPathComponent("segment.jsonl").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        try (times.map(String.init).joined(separator: "\n") + "\n").write(
            toFile: directory.appendingPathComponent("segment.times").path, atomically: true, encoding: .utf8)
        return path
    }

    static func days(_ path: String) throws -> [[String: Any]] {
        let result = try CLI.run([
            "report", "Schemas/Game.skan", path, "--no-verify", "--by", "install_day", "--format", "json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let cohorts = try #require(root["cohorts"] as? [[String: Any]])
        #expect(cohorts.count == 1)
        return try #require(cohorts.first?["days"] as? [[String: Any]])
    }

    @Test func aReceiptDaySpreadsOverTheDaysGamesLockAndApplesDelaysAllow() throws {
        // Game locks window 1 at hour 36 at the earliest: a first launch lies 60 to 96 hours before its receipt.
        let directory = try TemporaryDirectory()
        let december6 = UTCTime.dayNumber(year: 2025, month: 12, day: 6) * 86_400
        let times = Array(repeating: december6 + 3_600, count: 10) + Array(repeating: december6 + 90_000, count: 5)
        let days = try Self.days(try Self.segment(times, in: directory.url))
        #expect(days.map { $0["day"] as? String } == ["2025-12-02", "2025-12-03", "2025-12-04", "2025-12-05"])
        func column(_ name: String) -> [Double] { days.map { ($0[name] as? NSNumber)?.doubleValue ?? -1 } }
        #expect(column("installs_low") == [0, 0, 0, 0])
        #expect(column("installs_high") == [10, 15, 15, 5])
        #expect(column("through_low") == [0, 0, 10, 15])
        #expect(column("through_high") == [10, 15, 15, 15])
        #expect(column("allocated") == [4, 6, 4, 1])
    }

    @Test func theTruthLiesInsideEveryBoundOverRandomJourneys() throws {
        var random = SplitMix64(seed: 2026)
        for round in 0..<6 {
            let directory = try TemporaryDirectory()
            let start = UTCTime.dayNumber(year: 2026, month: 11, day: 1) * 86_400
            var launches: [Int] = []
            var times: [Int] = []
            for _ in 0..<200 {
                let launch = start + Int(random.next() % UInt64(20 * 86_400))
                // Window 1 ends when Game locks it (hour 36, when the app is used then) or at hour 48; Apple sends
                // 24 to 48 hours later.
                let end = Bool.random(using: &random) ? 36 * 3_600 : 48 * 3_600
                let delay = 24 * 3_600 + Int(random.next() % UInt64(24 * 3_600 + 1))
                launches.append(launch)
                times.append(launch + end + delay)
            }
            let days = try Self.days(try Self.segment(times, in: directory.url))
            var allocated = 0.0
            for entry in days {
                let day = try #require(entry["day"] as? String)
                let on = launches.filter { UTCTime.day($0) == day }.count
                let through = launches.filter { UTCTime.day($0) <= day }.count
                func value(_ name: String) -> Int { (entry[name] as? NSNumber)?.intValue ?? -1 }
                #expect(value("installs_low") <= on && on <= value("installs_high"), "round \(round) \(day)")
                #expect(value("through_low") <= through && through <= value("through_high"), "round \(round) \(day)")
                allocated += (entry["allocated"] as? NSNumber)?.doubleValue ?? 0
            }
            #expect(abs(allocated - 200) < 0.1)
            // Every true first-launch day is among the days listed.
            #expect(Set(launches.map(UTCTime.day)).isSubset(of: Set(days.compactMap { $0["day"] as? String })))
        }
    }

    @Test func installDaysNeedReceiptTimesAndTakeNoReceiptDay() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.segment([1_764_979_200], in: directory.url)
        let day = try CLI.run(["report", "Schemas/Game.skan", path, "--no-verify", "--by", "day,install_day"])
        #expect(day.status == 64 && day.stderr.contains("drop day"), "\(day.stderr)")
        try FileManager.default.removeItem(atPath: directory.url.appendingPathComponent("segment.times").path)
        let untimed = try CLI.run(["report", "Schemas/Game.skan", path, "--no-verify", "--by", "install_day"])
        #expect(untimed.status == 64 && untimed.stderr.contains("needs receipt times"), "\(untimed.stderr)")
    }
}
