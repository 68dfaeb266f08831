import SkanCompiler
import SkanCore
import SkanSchema
import SkanTestSupport
import Testing

/// The library's reference semantics on all 64 fine values of each shipped schema, against oracles written
/// from the schema text by hand (plain bit arithmetic, nothing shared with the library).
@Suite struct ReferenceSemanticsTests {
    /// What the reference semantics must say about one fine value.
    struct Expected: Equatable {
        var cases: [String]?
        var coarse: [CoarseValue]
        var lock: [Bool]
    }

    private func actual(_ schema: Schema, _ fine: Int) -> Expected {
        guard case .success(let state) = schema.decode(fineValue: fine) else {
            return Expected(cases: nil, coarse: [], lock: [])
        }
        #expect(schema.fineValue(of: state) == fine, "round trip of \(fine)")
        return Expected(
            cases: schema.cases(of: state).map { $0?.name ?? "?" },
            coarse: ConversionWindow.allCases.map { schema.coarseValue(of: state, window: $0)! },
            lock: ConversionWindow.allCases.map { schema.shouldLock(state, window: $0) })
    }

    @Test func shop() throws {
        let schema = try shippedSchema("Shop")
        let tiers = ["none", "low", "medium", "high"]
        let actions = ["none", "browsed", "addedToCart", "ordered"]
        for fine in 0...63 {
            let registered = fine & 1 == 1
            let tier = (fine >> 1) & 3
            let action = (fine >> 3) & 3
            let coarse: CoarseValue = tier >= 2 ? .high : (registered || action >= 2 ? .medium : .low)
            let expected =
                fine & 32 != 0
                ? Expected(cases: nil, coarse: [], lock: [])
                : Expected(
                    cases: [String(registered), tiers[tier], actions[action]],
                    coarse: [coarse, coarse, coarse], lock: [tier == 3, false, false])
            #expect(actual(schema, fine) == expected, "Shop fine value \(fine)")
        }
        #expect(schema.validStates.count == 32)
    }

    @Test func shopExamplesFromTheSchemaComment() throws {
        let schema = try shippedSchema("Shop")
        let state = try schema.decode(fineValue: 11).get()
        #expect(schema.cases(of: state).map { $0?.name } == ["true", "low", "browsed"])
        #expect(schema.coarseValue(of: state, window: .first) == .medium)
        #expect(
            schema.decode(fineValue: 42)
                == .failure(.reservedBitSet(bit: 5, reason: "Zero in this layout; set it when the layout changes")))
        #expect(schema.decode(fineValue: 64) == .failure(.outOfRange(64)))
        #expect(schema.decode(fineValue: -1) == .failure(.outOfRange(-1)))
        #expect(
            schema.state(["registered": "true", "paymentTier": "low", "dayOneAction": "browsed"]).map(schema.fineValue)
                == 11)
    }

    @Test func eventFlags() throws {
        let schema = try shippedSchema("EventFlags")
        for fine in 0...63 {
            let bit = { (n: Int) in fine & (1 << n) != 0 }
            let coarse: CoarseValue = bit(4) || bit(5) ? .high : (bit(1) && (bit(2) || bit(3)) ? .medium : .low)
            let expected = Expected(
                cases: (0...5).map { String(bit($0)) }, coarse: [coarse, coarse, coarse],
                lock: [false, false, false])
            #expect(actual(schema, fine) == expected, "EventFlags fine value \(fine)")
        }
        #expect(schema.state(["registered": "true", "watchedVideo": "true"]).map(schema.fineValue) == 10)
    }

    @Test func subscription() throws {
        let schema = try shippedSchema("Subscription")
        let revenues = ["none", "tiny", "small", "mid", "big", "large", "whale"]
        let sessions = ["one", "few", "some", "many"]
        for fine in 0...63 {
            let revenue = fine & 7
            let session = (fine >> 3) & 3
            let trial = fine & 32 != 0
            guard revenue < 7 else {
                #expect(
                    schema.decode(fineValue: fine)
                        == .failure(.undefinedCode(field: "revenue", code: 7, bits: BitRange(0, 2))))
                continue
            }
            let first: CoarseValue = revenue >= 2 ? .high : (trial || session >= 2 ? .medium : .low)
            let later: CoarseValue = revenue >= 3 ? .high : (revenue >= 1 ? .medium : .low)
            let expected = Expected(
                cases: [revenues[revenue], sessions[session], String(trial)],
                coarse: [first, later, later], lock: [false, revenue >= 4, revenue >= 4])
            #expect(actual(schema, fine) == expected, "Subscription fine value \(fine)")
        }
    }

    @Test func bucketsTurnAmountsAndCountsIntoCases() throws {
        let schema = try shippedSchema("Subscription")
        let revenue = try #require(schema.field(named: "revenue"))
        let sessions = try #require(schema.field(named: "sessions"))
        let amounts: [(Double, String?)] = [
            (0, "none"), (0.009, "none"), (0.01, "tiny"), (0.99, "tiny"), (1, "small"),
            (12.5, "mid"), (20, "big"), (99.99, "large"), (100, "whale"), (1e9, "whale"), (-1, nil),
        ]
        for (amount, name) in amounts {
            #expect(revenue.bucketCase(for: amount)?.name == name, "amount \(amount)")
        }
        let counts: [(Double, String)] = [
            (0, "one"), (1, "one"), (2, "few"), (3, "few"), (4, "some"), (9, "some"), (10, "many"),
        ]
        for (count, name) in counts {
            #expect(sessions.bucketCase(for: count)?.name == name, "count \(count)")
        }
    }

    @Test func conditionsReadBackAsWritten() throws {
        let schema = try shippedSchema("Shop")
        #expect(
            schema.coarseRules(window: .second).map { schema.text(of: $0.condition) }
                == ["paymentTier >= medium", "registered or dayOneAction >= addedToCart", "otherwise"])
        let nested = try #require(
            SchemaCompiler.compile(
                """
                schema N version 1 flag a at bit 0 flag b at bit 1 flag c at bit 2 reserved bits 3...5
                coarse { high when not (a or b) and c  low otherwise }
                """
            ).schema)
        #expect(nested.text(of: nested.coarseRules(window: .first)[0].condition) == "not (a or b) and c")
    }
}
