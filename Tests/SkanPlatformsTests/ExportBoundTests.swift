import SkanCompiler
import SkanCore
import SkanPlatforms
import Testing

/// Every export is bounded, whatever the schema: the work is counted (conjunctions built and compared, and the
/// entries kept), and a schema past the bound gets a located `export-limit` instead of a run that grows without end.
@Suite struct ExportBoundTests {
    /// Four flags each defined by a ten-term `or` of event conditions, a coarse block and a lock that combine them:
    /// 1.6 KB that `check` accepts, and that an export used to grow to gigabytes on.
    static let combined: String = {
        var lines = ["schema Blowup", "version 2"] + (0..<40).map { "event e\($0)" }
        for flag in 0..<4 {
            let terms = (0..<10).map { "e\(flag * 10 + $0).count >= \(1 + $0 % 3)" }.joined(separator: " or ")
            lines.append("flag f\(flag) at bit \(flag) when \(terms)")
        }
        let pairs = (1..<10).map { "(e\(2 * $0 - 1) and e\(2 * $0))" }.joined(separator: " or ")
        let anyOf = { (range: Range<Int>) in "(" + range.map { "e\($0)" }.joined(separator: " or ") + ")" }
        lines += [
            "reserved bits 4...5", "coarse {", "  high when (f0 and f1) or \(pairs)",
            "  medium when (f2 or f3) and \(anyOf(20..<30))", "  low otherwise", "}",
            "lock window 1 when \(anyOf(30..<40)) and \(anyOf(0..<10))",
        ]
        return lines.joined(separator: "\n") + "\n"
    }()

    /// 2,000 events and a first-match field of 63 cases on three events each: the Google Ads export's regions
    /// (each case and the negation of every case before it) multiply without end.
    static let manyEvents: String = {
        var lines = ["schema Big", "version 2"] + (0..<2_000).map { "event e\($0)" }
        lines.append("field step at bits 0...5 {")
        for code in stride(from: 63, to: 0, by: -1) {
            lines.append(
                "  s\(code) = \(code) when e\(3 * code) and e\(3 * code + 1) and e\(3 * code + 2) or e\(1_000 + code).count >= 3"
            )
        }
        lines += ["  s0 = 0 otherwise", "}", "coarse {"]
        lines += (0..<20).map { "  high when e\(1_500 + $0) and e\(1_600 + $0) and step >= s\($0 + 1)" }
        lines += ["  low otherwise", "}"]
        return lines.joined(separator: "\n") + "\n"
    }()

    @Test(arguments: [SchemaExport.Format.ga4, .googleAds, .appReportingPack])
    func everyFormatStopsWithinTheBound(_ format: SchemaExport.Format) throws {
        for text in [Self.combined, Self.manyEvents] {
            let compiled = SchemaCompiler.compile(text)
            let schema = try #require(compiled.schema, "\(compiled.diagnostics.map(\.message))")
            let export = SchemaExport(schema: schema, format: format, options: .init(appID: "1"))
            // One step past the limit at most (a comparison weighs its events).
            #expect(export.workSpent <= 201_000, "\(format): \(export.workSpent)")
            let limits = export.diagnostics(lossy: false).filter { $0.code == .exportLimit }
            #expect(!limits.isEmpty, "\(format)")
            #expect(export.diagnostics(lossy: false).allSatisfy { $0.severity == .error })
            // With --allow-lossy the same bound holds, and the limit is a warning.
            #expect(export.diagnostics(lossy: true).contains { $0.code == .exportLimit && $0.severity == .warning })
        }
    }

    @Test func theGoogleAdsLimitSaysWhereItRanOut() throws {
        let schema = try #require(SchemaCompiler.compile(Self.manyEvents).schema)
        let export = SchemaExport(schema: schema, format: .googleAds, options: .init(appID: "1"))
        let ranOut = export.diagnostics(lossy: false).filter { $0.message.contains("more than an export builds") }
        #expect(ranOut.count >= 1)
        #expect(ranOut.allSatisfy { $0.location != nil })
    }
}
