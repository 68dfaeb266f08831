import Foundation
import SkanTestSupport
import Testing

/// `skanc attribution` reads JSON as `skanc postbacks` does: numbers decided on their text, no trailing
/// commas, the last of repeated keys, any nesting; dates within years 1-9999; lines bounded the same way; and
/// the file streamed.
@Suite struct AttributionJSONRulesTests {
    /// The status and field of each line's row.
    static func statuses(_ lines: [String]) throws -> [String] {
        let result = try CLI.run(["attribution", "-"], stdin: lines.joined(separator: "\n") + "\n")
        return result.stdout.components(separatedBy: "\r\n").dropFirst().dropLast().map {
            $0.split(separator: ",", omittingEmptySubsequences: false).prefix(3).dropFirst().joined(separator: ",")
        }
    }

    @Test func numbersAreDecidedOnTheirText() throws {
        let lines = [
            #"{"attribution":true,"campaignId":1e-400}"#, #"{"attribution":true,"campaignId":0.99999999999999999999}"#,
            #"{"attribution":true,"campaignId":12345678901234567.5}"#, #"{"attribution":true,"campaignId":1e400}"#,
            #"{"attribution":true,"campaignId":2e1}"#, #"{"attribution":true,"campaignId":"12"}"#,
        ]
        #expect(
            try Self.statuses(lines) == [
                "wrong-type,campaignId", "wrong-type,campaignId", "wrong-type,campaignId", "out-of-range,campaignId",
                "ok,", "wrong-type,campaignId",
            ])
        let whole = try CLI.run(["attribution", "-"], stdin: lines[4] + "\n")
        #expect(whole.stdout.contains(",adservices,true,,20,"))
    }

    @Test func theJSONGrammarIsStrict() throws {
        let deep = String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)
        let lines = [
            #"{"attribution":true,}"#, #"{"attribution":false,"attribution":true,"campaignId":7}"#,
            #"{"attribution":true,"x":\#(deep)}"#, #"{"attribution":true} x"#, #"{"attribution":tru}"#,
            #"{"attribution":true,"campaignId":01}"#,
        ]
        #expect(try Self.statuses(lines) == ["not-json,", "ok,", "ok,", "not-json,", "not-json,", "not-json,"])
        let last = try CLI.run(["attribution", "-"], stdin: lines[1] + "\n")
        #expect(last.stdout.contains(",adservices,true,,7,"), "the last of repeated keys: \(last.stdout)")
    }

    @Test func datesOutsideYearsOneTo9999AreBad() throws {
        let lines = [
            #"{"attribution":true,"clickDate":"0000-06-01T00:00Z"}"#,
            #"{"attribution":true,"clickDate":"0001-01-01T00:30+01:00"}"#,
            #"{"attribution":true,"clickDate":"9999-12-31T23:30-01:00"}"#,
            #"{"attribution":true,"clickDate":"9999-12-31T23:30Z"}"#,
        ]
        #expect(try Self.statuses(lines) == ["bad-date,clickDate", "bad-date,clickDate", "bad-date,clickDate", "ok,"])
    }

    @Test func aLineOverTheBoundIsTooLongAsInPostbacks() throws {
        // 1 MiB of record and padding, then a carriage return: one byte over the bound in both commands.
        let record = #"{"attribution":false}"#
        let line = record + String(repeating: " ", count: (1 << 20) - record.utf8.count) + "\r"
        let attribution = try CLI.run(["attribution", "-"], stdin: line + "\n" + record + "\n")
        #expect(attribution.stdout.components(separatedBy: "\r\n")[1].hasPrefix("1,line-too-long,"))
        #expect(attribution.stdout.components(separatedBy: "\r\n")[2].hasPrefix("2,ok,"))
        let postbacks = try CLI.run(["postbacks", "Schemas/Shop.skan", "-", "--no-verify"], stdin: line + "\n")
        #expect(postbacks.stdout.components(separatedBy: "\r\n")[1].hasPrefix("1,line-too-long,"))
    }
}
