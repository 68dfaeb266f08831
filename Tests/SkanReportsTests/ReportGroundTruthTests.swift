import Foundation
import SkanCompiler
import SkanCore
import SkanPostbacks
import SkanReports
import SkanSchema
import SkanTestSupport
import Testing

/// `PostbackReport` against simulated ground truth: journeys run through each schema by many users at a known
/// tier mix (`SyntheticPostbacks`, what `skanc simulate --postbacks` writes), decoded by the reader, reported;
/// every count equals what the simulation sent, and every campaign's true revenue lies inside its interval.
@Suite struct ReportGroundTruthTests {
    /// Schemas with a derived `buckets amount` field (so the truth knows the amounts), and one without.
    static let schemas = [
        "Schemas/Game.skan", "Schemas/Platforms/SKANStandardRevenue.skan", "Schemas/Platforms/Adjust63.skan",
        "Schemas/Platforms/AppsFlyerFlexible.skan", "Schemas/Platforms/Datalyr.skan", "Schemas/Shop.skan",
    ]

    static func postbacks(_ schema: Schema, seed: UInt64, framework: SyntheticPostbacks.Options.AttributionFramework)
        -> SyntheticPostbacks
    {
        var options = SyntheticPostbacks.Options()
        (options.users, options.seed, options.campaigns, options.framework) = (250, seed, 4, framework)
        options.tiers = [.zero: 0.1, .one: 0.2, .two: 0.3, .three: 0.4]
        let journey = RandomJourney.text(for: schema, seed: Int(seed) + schema.name.utf8.count)
        return SyntheticPostbacks(schema: schema, journey: Array(journey.utf8), options: options)
    }

    static func report(_ lines: [String], _ schema: Schema, zeroIsNull: Bool = false, threads: Int = 2) throws
        -> PostbackReport
    {
        let options = PostbackReader.Options {
            ($0.verification, $0.threads, $0.chunkBytes) = (nil, threads, 4096)
            $0.grouping = PostbackReader.Grouping(groupings: [.sourceIdentifier], zeroIsNull: zeroIsNull)
        }
        let reader = PostbackReader(schema: schema, options: options, output: ByteArrayOutput())
        var input = ByteArrayInput(Array(lines.map { $0 + "\n" }.joined().utf8))
        try reader.read(&input, name: "synthetic")
        return PostbackReport(
            tally: try #require(reader.tally), summary: reader.summary, versions: LiveVersions([schema]))
    }

    @Test(arguments: schemas, [SyntheticPostbacks.Options.AttributionFramework.skAdNetwork, .adAttributionKit])
    func everyCountIsTheTruth(_ path: String, _ framework: SyntheticPostbacks.Options.AttributionFramework) throws {
        let schema = try ShippedSchemas.compile(path)
        for seed: UInt64 in [1, 2] {
            let synthetic = Self.postbacks(schema, seed: seed, framework: framework)
            let report = try Self.report(synthetic.lines, schema)
            #expect(report.lines == synthetic.lines.count && report.ok == report.lines && report.notOK.isEmpty)
            let truthGroups = Dictionary(grouping: synthetic.truths, by: \.sourceIdentifier)
            #expect(Set(report.groups.map { $0.by[0].text! }) == Set(truthGroups.keys))
            for group in report.groups {
                #expect(group.by[0].column == .sourceIdentifier)
                let truths = truthGroups[group.by[0].text!] ?? []
                for window in group.windows {
                    let sent = truths.filter { $0.window.number == window.number }
                    #expect(window.postbacks == sent.count)
                    #expect(window.withFineValue == sent.filter { $0.fineValue != nil }.count)
                    #expect(window.withCoarseValue == sent.filter { $0.coarseValue != nil }.count)
                    #expect(window.withoutValue == sent.filter { $0.fineValue == nil && $0.coarseValue == nil }.count)
                    #expect(window.tiers == Self.tierCounts(sent))
                    #expect(
                        window.coarse
                            == CoarseValue.allCases.map { value in sent.filter { $0.coarseValue == value }.count })
                    for (index, field) in schema.fields.enumerated() {
                        let counted = try #require(
                            window.fields.first { $0.column == ColumnNames.snakeCase(field.name) })
                        for fieldCase in field.cases {
                            let truth = sent.filter { truth in
                                guard let fine = truth.fineValue else { return false }
                                return (fine >> field.bits.lower) & field.bits.maximumCode == fieldCase.code
                            }.count
                            #expect(counted.cases.first { $0.name == fieldCase.name }?.postbacks == truth, "\(index)")
                        }
                    }
                }
            }
        }
    }

    /// The tier each postback's fields show, by Apple's table: in the first window, tier 3 shows the publishing
    /// app (with or without a value), tier 2 a fine value or four digits, tier 1 a coarse value; two digits and no
    /// value are tier 0 or a tier-1 install whose app set no value in the window, not told apart (unknown, never
    /// claimed as 0); every later postback tells no tier.
    static func tierCounts(_ truths: [SyntheticPostbacks.Truth]) -> [Int] {
        var counts = [0, 0, 0, 0, 0]
        for truth in truths {
            let tier: Int
            switch (truth.window, truth.tier) {
            case (.first, .three): tier = 3
            // Tier 2 shows four digits of source identifier, so it is known with or without a fine value.
            case (.first, .two): tier = 2
            case (.first, .one) where truth.coarseValue != nil: tier = 1
            case (.first, .one), (.first, .zero): tier = 4
            default: tier = 4
            }
            counts[tier] += 1
        }
        return counts
    }

    @Test(arguments: schemas.dropLast())
    func trueRevenueLiesInsideEveryInterval(_ path: String) throws {
        let schema = try ShippedSchemas.compile(path)
        let field = try #require(schema.fields.first { $0.kind == .buckets(.amount) })
        for seed: UInt64 in 1...4 {
            let synthetic = Self.postbacks(schema, seed: seed, framework: .skAdNetwork)
            let report = try Self.report(synthetic.lines, schema)
            var checked = 0
            for group in report.groups {
                let revenue = try #require(group.revenue.first { $0.field == ColumnNames.snakeCase(field.name) })
                let shown = synthetic.truths.filter { $0.sourceIdentifier == group.by[0].text && $0.fineValue != nil }
                #expect(revenue.postbacks == shown.count)
                let truth = shown.reduce(0) { $0 + ($1.amounts[field.name] ?? 0) }
                #expect(revenue.low.doubleValue <= truth + 1e-9, "\(group.by) seed \(seed)")
                if let high = revenue.high {
                    #expect(truth <= high.doubleValue + 1e-9, "\(group.by) seed \(seed)")
                } else {
                    #expect(revenue.ranges.contains { $0.high == nil && $0.postbacks > 0 })
                }
                #expect(revenue.low <= revenue.mid && revenue.high.map { revenue.mid <= $0 } ?? true)
                if !shown.isEmpty { checked += 1 }
            }
            #expect(checked > 0, "a campaign shows revenue")
        }
    }

    /// The hard bounds over all installs (window-1 postbacks: fine-value ranges, what the coarse rules allow a
    /// coarse-only postback, at least 0 for one with neither) hold every campaign's true revenue, at every tier mix.
    @Test(arguments: schemas.dropLast())
    func installBoundsHoldTheTruthOfEveryInstall(_ path: String) throws {
        let schema = try ShippedSchemas.compile(path)
        let field = try #require(schema.fields.first { $0.kind == .buckets(.amount) })
        var bounded = 0
        for seed: UInt64 in 1...4 {
            let synthetic = Self.postbacks(schema, seed: seed, framework: .skAdNetwork)
            let report = try Self.report(synthetic.lines, schema)
            for group in report.groups {
                let revenue = try #require(group.revenue.first { $0.field == ColumnNames.snakeCase(field.name) })
                let installs = synthetic.truths.filter {
                    $0.sourceIdentifier == group.by[0].text && $0.window == .first
                }
                #expect(revenue.installs.installs == installs.count)
                let truth = installs.reduce(0) { $0 + ($1.amounts[field.name] ?? 0) }
                #expect(revenue.installs.low.doubleValue <= truth + 1e-9, "\(path) \(group.by) seed \(seed)")
                if let high = revenue.installs.high {
                    #expect(truth <= high.doubleValue + 1e-9, "\(path) \(group.by) seed \(seed)")
                }
                #expect(revenue.installs.low.doubleValue >= revenue.low.doubleValue - 1e-9)
                if revenue.installs.low > revenue.low { bounded += 1 }
                if let estimate = revenue.installs.estimate {
                    let high = try #require(estimate.high, "only an estimate over every install can be open above")
                    #expect(estimate.low <= estimate.mid && estimate.mid <= high)
                    let without = installs.filter { $0.fineValue == nil }.count
                    #expect(estimate.installs == without)
                }
            }
        }
        // Game's coarse `high when revenue >= mid` raises the lower bound above the fine values' alone.
        if path == "Schemas/Game.skan" { #expect(bounded > 0) }
    }

    /// Rows that are not `ok` are counted by status and in no group: a repeated postback (duplicate) and a
    /// line that is no JSON. With `zeroIsNull`, a fine value of 0 counts as no value.
    @Test func rowsThatAreNotOKAreCountedApart() throws {
        let schema = try ShippedSchemas.compile("Schemas/Game.skan")
        let synthetic = Self.postbacks(schema, seed: 3, framework: .skAdNetwork)
        // The second copy of line 2 claims a campaign no ok postback has: its group is left out, not listed empty.
        let elsewhere = synthetic.lines[1].replacingOccurrences(
            of: "\"source-identifier\":\"\(synthetic.truths[1].sourceIdentifier)\"",
            with: "\"source-identifier\":\"77\"")
        #expect(elsewhere != synthetic.lines[1])
        let lines = synthetic.lines + [synthetic.lines[0], "{not json", elsewhere]
        let report = try Self.report(lines, schema)
        #expect(report.lines == lines.count && report.ok == synthetic.lines.count)
        #expect(report.notOK.map(\.status.code) == ["not-json", "duplicate"])
        #expect(report.notOK.map(\.rows) == [1, 2])
        #expect(report.groups.allSatisfy { $0.postbacks > 0 } && !report.groups.contains { $0.by[0].text == "77" })
        #expect(report.groups.reduce(0) { $0 + $1.postbacks } == synthetic.lines.count)
        let zero = synthetic.truths.filter { $0.fineValue == 0 }.count
        let nulls = try Self.report(synthetic.lines, schema, zeroIsNull: true)
        let plain = try Self.report(synthetic.lines, schema)
        let without = { (report: PostbackReport) in report.groups.reduce(0) { $0 + $1.windows[0].withoutValue } }
        #expect(without(nulls) == without(plain) + zero)
    }

    /// Batches count their groups apart and the merge renumbers them: one thread or several, small batches or
    /// one, the report is the same byte for byte, in every format.
    @Test func theReportIsTheSameForAnyThreads() throws {
        let schema = try ShippedSchemas.compile("Schemas/Game.skan")
        let synthetic = Self.postbacks(schema, seed: 5, framework: .adAttributionKit)
        let lines = synthetic.lines + synthetic.lines.prefix(40)
        let one = try Self.report(lines, schema, threads: 1)
        let several = try Self.report(lines, schema, threads: 4)
        for format in ReportFormat.allCases { #expect(format.render(one) == format.render(several), "\(format)") }
        #expect(one.notOK.map(\.rows) == [40])
    }
}
