import Foundation
import SkanCompiler
import SkanCore
import SkanSchema
import SkanSchemaTools
import SkanTestSupport
import Testing

/// `skanc preview` against Apple's tier table, written out here on its own, for every shipped schema; and each
/// field's reading against the states themselves.
@Suite struct PrivacyPreviewTests {
    /// Apple's table as this test reads it: for each tier, whether postbacks 2 and 3 are sent, and what the
    /// first and the later postbacks carry, with the source identifier's digits.
    static let table: [Int: (later: Bool, first: [String], rest: [String], digits: [Int])] = [
        0: (false, ["source_identifier"], [], [2, 2]),
        1: (true, ["coarse_value", "source_identifier"], ["coarse_value", "source_identifier"], [2, 2]),
        2: (true, ["fine_value", "source_identifier"], ["coarse_value", "source_identifier"], [2, 4]),
        3: (
            true, ["fine_value", "source_identifier", "source_app_id", "source_domain", "country_code"],
            ["coarse_value", "source_identifier"], [2, 4]
        ),
    ]

    @Test(arguments: ShippedSchemas.all)
    func everyCellFollowsApplesTable(_ path: String) throws {
        let schema = try ShippedSchemas.compile(path)
        let preview = PrivacyPreview(schema: schema)
        #expect(preview.cells.count == 12)
        for cell in preview.cells {
            let row = try #require(Self.table[cell.tier.rawValue])
            let first = cell.window == .first
            #expect(cell.postback == (first || row.later), "\(path) \(cell.window) \(cell.tier)")
            let carries = cell.postback ? (first ? row.first : row.rest) : []
            #expect(cell.carries.map(\.rawValue) == carries, "\(path) \(cell.window) \(cell.tier)")
            let digits = cell.sourceIdentifierDigits.map { [$0.lowerBound, $0.upperBound] }
            #expect(digits == (cell.postback ? (first ? row.digits : [2, 2]) : nil), "\(path) \(cell.window)")
            for (name, reading) in cell.fields {
                if carries.contains("fine_value") {
                    #expect(reading == .fine, "\(path) \(name)")
                } else if !carries.contains("coarse_value") {
                    #expect(reading == .none, "\(path) \(name)")
                }
            }
        }
    }

    /// A field that reads "coarse" has one case per coarse value over every state and activity seen; one that
    /// reads "none" has two cases under some coarse value (for schemas whose coarse rules read only fields,
    /// where every state's coarse value is known).
    @Test(arguments: ShippedSchemas.all)
    func coarseReadingsHoldOnTheStates(_ path: String) throws {
        let schema = try ShippedSchemas.compile(path)
        let preview = PrivacyPreview(schema: schema)
        let states = (0...63).compactMap { try? schema.decode(fineValue: $0).get() }
        for window in ConversionWindow.allCases {
            let cell = try #require(preview.cells.first { $0.window == window && $0.tier == .one })
            let rules = schema.coarseRules(window: window)
            guard !rules.contains(where: \.condition.readsActivity) else { continue }
            for (index, field) in cell.fields.enumerated() {
                var cases: [CoarseValue: Set<Int>] = [:]
                for state in states {
                    let value = try #require(rules.first { $0.condition.holds(for: state.codes) }?.value)
                    cases[value, default: []].insert(state.codes[index])
                }
                let readable = cases.values.allSatisfy { $0.count == 1 }
                #expect((field.reading == .coarse) == readable, "\(path) window \(window.number) \(field.name)")
            }
        }
    }

    @Test func aFieldTheCoarseValueTellsReadsCoarse() throws {
        let schema = try #require(
            SchemaCompiler.compile(
                """
                schema P
                version 1
                flag paid at bit 0
                field rank at bits 1...2 { none = 0  low = 1  mid = 2  high = 3 }
                reserved bits 3...5
                coarse { high when paid  low otherwise }
                """
            ).schema)
        let cell = try #require(PrivacyPreview(schema: schema).cells.first { $0.window == .second && $0.tier == .two })
        #expect(cell.fields.map(\.reading) == [.coarse, .none])
        // Reserved bits hold 0: eight valid fine values, half of them paid.
        #expect(cell.coarseStates?.map(\.states) == [4, 0, 4])
    }
}
