import Foundation
import SkanCompiler
import SkanCore
import SkanSchema
import SkanTestSupport
import Testing

/// The coverage check decides coarse blocks on events and time exactly, at any number of terms: a gap the reference
/// semantics can meet is always reported, and a rule some activity reaches first is never called unreachable.
@Suite struct CoverageSearchTests {
    static func diagnostics(_ text: String) -> [Diagnostic] {
        SchemaCompiler.compile(SourceText(path: "t.skan", text: text)).diagnostics
    }

    static func events(_ count: Int, valued: Set<Int> = []) -> String {
        (0..<count).map { "event e\($0)" + (valued.contains($0) ? " value USD" : "") }.joined(separator: "\n")
    }

    /// Eleven event terms, and a real gap: `e0` logged and nothing else. (The check used to try only the activity
    /// where nothing was logged past ten terms, and passed it; `simulate` then gave no coarse value.)
    @Test func aGapPastTenEventTermsIsFound() throws {
        let rules = ["low when not e0", "medium when e0 and e1"] + (2...10).map { "medium when e\($0)" }
        let text = """
            schema T
            version 2
            \(Self.events(11))
            flag x at bit 0
            reserved bits 1...5
            coarse {
              \(rules.joined(separator: "\n  "))
            }
            """
        let gap = try #require(Self.diagnostics(text).first { $0.code == .coarseGap })
        #expect(gap.message.hasPrefix("fine value 0 when 'e0' true, 'e1' false, 'e2' false"), "\(gap.message)")
    }

    /// Eleven rules on events, then `otherwise`: each rule is reached (by its own event), so none is unreachable.
    @Test func elevenEventRulesAreEachUsed() {
        let text = """
            schema T
            version 2
            \(Self.events(11))
            flag x at bit 0
            reserved bits 1...5
            coarse window 2 {
              \((0...10).map { "medium when e\($0)" }.joined(separator: "\n  "))
              low otherwise
            }
            coarse window 1 { low otherwise }
            coarse window 3 { low otherwise }
            """
        let found = Self.diagnostics(text).filter { $0.code == .unreachable || $0.code == .coarseGap }
        #expect(found.isEmpty, "\(found.map(\.message))")
    }

    /// Terms on one quantity are related: `e0.count >= 2` implies `e0`, and `hours` stays within the windows.
    @Test func relatedTermsAreNotTakenAsFree() {
        let text = """
            schema T
            version 2
            \(Self.events(1))
            flag x at bit 0
            reserved bits 1...5
            coarse {
              high when e0.count >= 2
              medium when e0
              low when e0.count < 1
            }
            """
        // Taken as free, the three terms could all be false, a gap no activity has.
        #expect(Self.diagnostics(text).isEmpty, "\(Self.diagnostics(text).map(\.message))")
    }

    /// Random blocks of up to fourteen rules on up to twelve events, amounts and hours, without `otherwise`: the
    /// check and the reference semantics give one answer. A sampled activity that reaches no rule means the check
    /// reported a gap; a rule some sample reaches first is not among those it calls unreachable.
    /// Sums are whole minor units, so `<= 9.99` and `>= 10` of USD leave no sum between them, and `> 999` and
    /// `< 1000` of JPY none: no gap. In gold (XAU, no minor unit) 9.995 falls between, a gap.
    @Test func sumsOnTheCurrencyGridLeaveNoGapBetweenUnits() {
        func gaps(_ currency: String, _ low: String, _ high: String) -> [String] {
            Self.diagnostics(
                """
                schema T
                version 1
                event purchase value \(currency)
                reserved bits 0...5
                coarse { low when purchase.sum \(low)  high when purchase.sum \(high) }
                """
            ).map { "\($0.code)" }
        }
        #expect(gaps("USD", "<= 9.99", ">= 10") == [])
        #expect(gaps("USD", "< 9.995", "> 9.99") == [])
        #expect(gaps("JPY", "< 1000", "> 999") == [])
        #expect(gaps("KWD", "<= 0.499", ">= 0.5") == [])
        #expect(gaps("USD", "<= 9.98", ">= 10") == ["coarse-gap"])
        #expect(gaps("XAU", "<= 9.99", ">= 10") == ["coarse-gap"])
    }

    @Test func theCheckAndTheReferenceSemanticsAgreeOverRandomBlocks() throws {
        var random = SplitMix64(seed: 0xC0FE)
        func pick(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }
        var gapsMet = 0
        for _ in 0..<120 {
            let eventCount = 3 + pick(10)
            let valued = Set((0..<eventCount).filter { _ in pick(3) == 0 })
            func atom() -> String {
                let event = pick(eventCount)
                switch pick(valued.contains(event) ? 7 : 6) {
                case 0: return "e\(event)"
                case 1: return "not e\(event)"
                case 2: return "e\(event).count >= \(1 + pick(3))"
                case 3: return "e\(event).count < \(1 + pick(3))"
                case 4: return "hours >= \([24, 48, 100, 200][pick(4)])"
                case 5: return "hours < \([24, 48, 100, 200][pick(4)])"
                default: return "e\(event).sum >= \([1, 5, 20][pick(3)])"
                }
            }
            let rules = (0..<(2 + pick(13))).map { _ in
                let joiner = pick(2) == 0 ? " and " : " or "
                return "\(["low", "medium", "high"][pick(3)]) when "
                    + (0..<(1 + pick(3))).map { _ in atom() }.joined(separator: joiner)
            }
            let text = """
                schema T
                version 2
                \(Self.events(eventCount, valued: valued))
                flag x at bit 0
                reserved bits 1...5
                coarse {
                  \(rules.joined(separator: "\n  "))
                }
                """
            let found = Self.diagnostics(text)
            #expect(!found.contains { $0.code == .coverageLimit }, "\(text)")
            let gapReported = found.contains { $0.code == .coarseGap }
            let unreachable = found.filter { $0.code == .unreachable }.count
            // The same rules with a catch-all, to evaluate with the reference semantics.
            let schema = try #require(
                SchemaCompiler.compile(text.replacingOccurrences(of: "\n}", with: "\n  low otherwise\n}")).schema,
                "\(text)")
            let conditions = schema.coarseRules(window: .first).map(\.condition)
            var reached = Set<Int>()
            var gapSeen = false
            for _ in 0..<300 {
                let hour = Double(pick(840)) + 0.5
                let counts = (0..<eventCount).map { _ in Double(pick(4)) }
                let sums = counts.enumerated().map { event, count in
                    valued.contains(event)
                        ? (0..<Int(count)).reduce(0.0) { sum, _ in sum + [0, 1, 5, 20, 100][pick(5)] } : 0
                }
                let facts = SampledActivity(counts: counts, sums: sums, hours: hour)
                let codes = [pick(2)]
                let first = conditions.firstIndex { $0.holds(for: codes, facts: facts) }!
                if first == conditions.count - 1 { gapSeen = true } else { reached.insert(first) }
            }
            if gapSeen {
                gapsMet += 1
                #expect(gapReported, "\(text)")
            }
            #expect(reached.count + unreachable <= rules.count, "\(text)")
        }
        // The blocks are varied enough that the reference semantics meet gaps in many of them.
        #expect(gapsMet > 20)
    }
}

/// Counts, sums and the hour as a sampled activity has them.
struct SampledActivity: ActivityFacts {
    var counts: [Double]
    var sums: [Double]
    var hours: Double
    func count(of event: Int) -> Double { counts[event] }
    func sum(of event: Int) -> Double { sums[event] }
}
