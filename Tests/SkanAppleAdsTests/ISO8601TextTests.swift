import Foundation
import Testing

@testable import SkanAppleAds

/// The click-date reader against Foundation's ISO 8601 formatter, over random dates, offsets and forms.
@Suite struct ISO8601TextTests {
    @Test func agreesWithFoundationOnRandomDates() {
        var generator = SystemRandomNumberGenerator()
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        for _ in 0..<5_000 {
            let date = Date(
                timeIntervalSince1970: Double(Int64.random(in: -2_000_000_000...4_000_000_000, using: &generator)))
            let offsetMinutes =
                Int.random(in: -14...14, using: &generator) * 60 + [0, 30, 45].randomElement(using: &generator)!
            let zone = TimeZone(secondsFromGMT: offsetMinutes * 60)!
            let local = ISO8601DateFormatter()
            local.formatOptions = [.withInternetDateTime]
            local.timeZone = zone
            let written = local.string(from: date)  // 2016-09-29T13:25:08+02:00, or ...Z at offset zero
            #expect(ISO8601Text.normalized(written) == formatter.string(from: date), "\(written)")
            // Apple Ads' own forms: without seconds, with a fraction.
            let minutes = formatter.string(from: date).replacingOccurrences(
                of: #":\d\dZ$"#, with: "Z", options: .regularExpression)
            #expect(ISO8601Text.normalized(minutes)?.hasPrefix(String(minutes.dropLast())) == true, "\(minutes)")
        }
        #expect(ISO8601Text.normalized("2016-09-29T11:25:08.123Z") == "2016-09-29T11:25:08Z")
        #expect(ISO8601Text.normalized("2024-02-29T00:00Z") == "2024-02-29T00:00:00Z")
    }

    @Test func refusesWhatIsNotADate() {
        for text in [
            "", "2020-04-08", "2020-04-08T17:17", "2020-13-01T00:00Z", "2021-02-29T00:00Z", "2020-04-08T24:00Z",
            "2020-04-08T17:60Z", "2020-04-08T17:17:61Z", "2020-04-08 17:17Z", "2020-04-08T17:17Z ", "20-04-08T17:17Z",
            "2020-04-08T17:17+25:00", "2020-04-08T17:17.5Z", "２０２０-04-08T17:17Z",
        ] {
            #expect(ISO8601Text.normalized(text) == nil, "\(text)")
        }
    }

    @Test func randomBytesNeverCrashTheReaders() {
        var generator = SystemRandomNumberGenerator()
        let seeds = [
            #"{"attribution":true,"clickDate":"2020-04-08T17:17Z","campaignId":1}"#,
            #"{"Version3.1":{"iad-attribution":"true"}}"#,
        ]
        for _ in 0..<3_000 {
            var bytes = Array(seeds.randomElement(using: &generator)!.utf8)
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                bytes[index] = UInt8.random(in: 0...255, using: &generator)
            }
            _ = try? AppleAdsAttribution(json: Data(bytes))
            _ = ISO8601Text.normalized(String(decoding: bytes, as: UTF8.self))
        }
    }
}
