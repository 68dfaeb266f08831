import SkanCompiler
import SkanCore
import SkanPlatforms
import SkanSchema
import SkanTestSupport
import Testing

/// The first-match lists against the reference semantics: on random activities, the first entry that holds gives
/// the schema's fine value, coarse value and lock, for every schema that exports exactly; and each kind of loss
/// is found where it is.
@Suite struct FirstMatchListTests {
    static func compile(_ text: String) throws -> Schema {
        let result = SchemaCompiler.compile(text)
        return try #require(result.schema, "\(result.diagnostics)")
    }

    static func list(_ schema: Schema) -> FirstMatchList {
        FirstMatchList(schema: schema, entryLimit: 128, eventLimit: 3)
    }

    /// The first entry of `entries` that holds on `activity` at `hour`.
    static func firstMatch(_ entries: [FirstMatchEntry], _ activity: Activity, at hour: Double) -> FirstMatchEntry? {
        let logged = activity.events.filter { $0.hour <= hour }
        return entries.first { entry in
            entry.when.holds(
                count: { event in Double(logged.filter { $0.event == event }.count) },
                sum: { event in logged.filter { $0.event == event }.reduce(0) { $0 + ($1.amount ?? 0) } })
        }
    }

    /// Every shipped schema whose GA4 list is exact.
    static let exactSchemas: [String] = ShippedSchemas.all.filter { path in
        guard let schema = try? ShippedSchemas.compile(path) else { return false }
        return list(schema).losses.isEmpty
    }

    /// The others read time, an `in window` count, a sum over several events, a strict amount bound or a field
    /// the app sets (ExportGoldenTests checks each is refused).
    @Test func theExactSchemasAreThoseWithEventBoundsAlone() {
        #expect(Self.exactSchemas == ["Schemas/Platforms/Datalyr.skan", "Schemas/Platforms/GA4.skan"])
    }

    @Test(arguments: exactSchemas, 0..<8)
    func theFirstEntryThatHoldsIsTheSchemasValue(_ path: String, _ seed: Int) throws {
        let schema = try ShippedSchemas.compile(path)
        let list = Self.list(schema)
        var generator = SplitMix64(seed: UInt64(seed) &* 7919 &+ UInt64(path.utf8.count))
        var activity = Activity()
        var hour = 0.0
        let amounts = JourneyAmounts.edges(of: schema)
        for _ in 0..<60 {
            hour += [0, 0.5, 4, 30].randomElement(using: &generator)!
            if !schema.events.isEmpty, Int.random(in: 0..<5, using: &generator) > 0 {
                let event = Int.random(in: 0..<schema.events.count, using: &generator)
                let amount = schema.events[event].hasValue ? amounts.randomElement(using: &generator)! : nil
                activity.events.append(LoggedEvent(event: event, hour: hour, amount: amount))
            }
            let expected = schema.evaluate(activity, at: hour)
            guard let window = expected.window else { break }
            let entry = try #require(Self.firstMatch(list.windows[window], activity, at: hour), "\(path) at \(hour)")
            if window == .first { #expect(entry.fineValue == expected.fineValue, "\(path) at \(hour)") }
            #expect(entry.coarseValue == expected.coarseValue, "\(path) at \(hour), window \(window.number)")
            #expect(entry.lock == expected.lock, "\(path) at \(hour), window \(window.number)")
        }
    }

    @Test func bucketsAreTriedFromTheHighestWithLowerBoundsOnly() throws {
        let schema = try Self.compile(
            """
            schema B
            version 2
            event purchase value USD
            field revenue at bits 0...1 buckets amount of purchase {
              none = 0 0..<0.01
              low  = 1 0.01..<5
              high = 2 5...
            }
            reserved bits 2...5
            coarse { high when revenue == high  low otherwise }
            """)
        let entries = Self.list(schema).windows[.first]
        #expect(entries.map(\.fineValue) == [2, 1, 0])
        #expect(entries.map { $0.when.bounds.first?.minValue } == [5, 0.01, nil])
        #expect(entries.allSatisfy { $0.when.bounds.allSatisfy { $0.maxValue == nil } })
        #expect(entries.last?.when == .always)
    }

    /// Closed amount buckets one minor unit apart (`0...4.99`, `5...` of USD) leave no amount between them: no
    /// `export-gap`; in gold (XAU, no minor unit) 4.995 lies between, a gap.
    @Test func closedAmountBucketsOneUnitApartExportWithoutAGap() throws {
        for (currency, gap) in [("USD", false), ("XAU", true)] {
            let schema = try Self.compile(
                """
                schema B
                version 1
                event purchase value \(currency)
                field revenue at bits 0...1 buckets amount of purchase {
                  low  = 0 0...4.99
                  high = 1 5...
                }
                reserved bits 2...5
                coarse { low otherwise }
                """)
            let kinds = Self.list(schema).losses.map { "\($0.kind)" }
            #expect(kinds.contains { $0.hasPrefix("bucketGap") } == gap, "\(currency): \(kinds)")
        }
    }

    /// Amounts summed in whole minor units make every strict amount bound an inclusive one, on the currency's own
    /// grid: cents for USD, yen for JPY, fils for KWD; a bound between two minor units moves to the next one.
    @Test func strictAmountBoundsOfWholeMinorUnitsAreInclusive() throws {
        let schema = try Self.compile(
            """
            schema Units
            version 1
            event purchase value USD
            event gift value JPY
            event fee value KWD
            field spend at bits 0...2 {
              big   = 4 when purchase.sum > 100
              yen   = 3 when gift.sum > 1000 and not (gift.sum >= 5000)
              fils  = 2 when fee.sum > 0.5
              some  = 1 when purchase.sum > 9.995
              none  = 0 otherwise
            }
            coarse { low otherwise }
            """)
        let list = Self.list(schema)
        // GA4's one currency per property is its own loss; no bound is.
        #expect(list.losses.map { "\($0.kind)" } == ["currencies([\"JPY\", \"KWD\", \"USD\"])"])
        let bounds = Dictionary(
            list.windows[.first].map { ($0.fineValue, $0.when.bounds.map { [$0.minValue, $0.maxValue] }) },
            uniquingKeysWith: { first, _ in first })
        #expect(bounds[4] == [[100.01, nil]])
        #expect(bounds[3] == [[1001, 4999]])
        #expect(bounds[2] == [[0.501, nil]])
        #expect(bounds[1] == [[10, nil]])
    }

    @Test func eachKindOfLossIsFoundWhereItIs() throws {
        // Gold (XAU) has no minor unit in ISO 4217: its amounts are summed as logged, so `> 100` stays strict.
        let schema = try Self.compile(
            """
            schema L
            version 2
            event purchase value XAU
            event ad value XAU
            event refund value EUR
            event open
            flag big at bit 0 when purchase.sum > 100
            flag late at bit 1 when open and hours >= 24
            field rank at bits 2...3 { a = 0  b = 1  c = 2 }
            field both at bit 4 buckets amount of purchase + ad {
              none = 0 0..<1
              some = 1 1...
            }
            field recent at bit 5 buckets count of open in window {
              none = 0 0
              some = 1 1...
            }
            coarse window 1 { high when big  low otherwise }
            coarse windows 2...3 { medium when recent == some  low otherwise }
            lock window 1 after 36 hours
            """)
        let losses = Self.list(schema).losses
        let kinds = Set(losses.map { "\($0.kind)".prefix { $0 != "(" } })
        #expect(kinds == ["strictAmount", "time", "appSet", "summedEvents", "windowScope", "currencies"])
        let strict = try #require(losses.first { if case .strictAmount = $0.kind { true } else { false } })
        #expect(strict.location?.line == 7)
        #expect(strict.fineValues.contains(1) && !strict.fineValues.contains(0))
        let diagnostic = strict.diagnostic(platform: "GA4", lossy: false)
        #expect(diagnostic.code == .exportBound && diagnostic.severity == .error)
        #expect(diagnostic.message.contains("'purchase.sum > 100'"))
        #expect(diagnostic.message.contains("--allow-lossy"))
        #expect(strict.diagnostic(platform: "GA4", lossy: true).severity == .warning)
    }

    /// Six flags, each an `or` of twelve conjunctions: the alternatives multiply past what an export follows,
    /// which is refused (and cut), not followed to the end.
    @Test func conditionsThatMultiplyAreRefusedNotFollowed() throws {
        let events = (0..<12).map { "e\($0)" }
        var lines = ["schema H", "version 2"] + events.map { "event \($0)" }
        for bit in 0..<6 {
            let terms = (0..<12).map { "(\(events[(bit + $0) % 12]) and \(events[(bit + $0 + 1) % 12]).count >= 2)" }
            lines.append("flag f\(bit) at bit \(bit) when " + terms.joined(separator: " or "))
        }
        lines.append("coarse { high when f0 and f1  medium when f2 or f3  low otherwise }")
        let schema = try Self.compile(lines.joined(separator: "\n"))
        for format in [SchemaExport.Format.ga4, .googleAds] {
            let export = SchemaExport(schema: schema, format: format, options: .init(appID: "1"))
            // Refused at whichever bound comes first: the alternatives, the entries, or the work.
            #expect(
                export.diagnostics(lossy: false).contains { $0.code == .exportLimit }, "\(format): \(export.losses)")
            #expect(export.workSpent <= 201_000)
        }
    }

    @Test func aNegatedCountIsAnUpperBound() throws {
        let schema = try Self.compile(
            """
            schema N
            version 2
            event open
            event buy
            flag loyal at bit 0 when open.count >= 3 and not buy
            reserved bits 1...5
            coarse { medium when loyal  low otherwise }
            """)
        let list = Self.list(schema)
        #expect(list.losses.isEmpty)
        let first = try #require(list.windows[.first].first)
        #expect(first.fineValue == 1)
        #expect(first.when.bounds.map(\.maxCount) == [nil, 0])
        #expect(first.when.bounds.map(\.minCount) == [3, nil])
    }
}
