import SkanCompiler
import SkanTestSupport
import Testing

@testable import SkanPlatforms

/// The App Reporting Pack's decoder joins postbacks to the rows on app id and value and groups by event, so each
/// value and event is one row, whatever number of ways the schema reaches the value.
struct AppReportingPackRowsTests {
    static func rows(_ source: String) throws -> [[String]] {
        let schema = try #require(SchemaCompiler.compile(source).schema)
        let export = SchemaExport(schema: schema, format: .appReportingPack, options: .init(appID: "1234567890"))
        #expect(export.losses.isEmpty, "\(export.losses)")
        return export.text.split(separator: "\r\n").dropFirst().map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
    }

    @Test func aValueReachedTwoWaysIsOneRowPerEvent() throws {
        let rows = try Self.rows(
            """
            schema S version 2
            event purchase value USD
            event level_up
            flag buyer at bit 0 when purchase.sum >= 100 or purchase.count >= 5
            flag player at bit 1 when level_up.count >= 3 and purchase.sum >= 20
            coarse { low otherwise }
            """)
        let keys = rows.map { [$0[1], $0[2]] }
        #expect(Set(keys).count == keys.count, "\(rows)")
        // Value 1: a sum of at least 100, or five purchases: each says nothing the other keeps, so no bound.
        let buyer = try #require(rows.first { $0[1] == "purchase" && $0[2] == "1" })
        #expect(buyer == ["1234567890", "purchase", "1", "", "", "", ""], "\(rows)")
        // Value 3 (both flags) keeps the bounds every way to it shares: level_up three times, a purchase of 20.
        let both = rows.filter { $0[2] == "3" }
        #expect(both.first { $0[1] == "level_up" }?[3] == "3", "\(rows)")
        #expect(both.first { $0[1] == "purchase" }.map { Double($0[4]) ?? 0 } ?? 0 >= 20, "\(rows)")
    }

    @Test func theHullKeepsWhatEveryEntrySays() {
        #expect(AppReportingPackRows.hull([3, 5], min) == 3)
        #expect(AppReportingPackRows.hull([3, nil], min) == nil)
        #expect(AppReportingPackRows.hull([Double?](), max) == nil)
        #expect(AppReportingPackRows.hull([2.5, 9.5], max) == 9.5)
    }
}
