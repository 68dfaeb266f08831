import Foundation
import SkanCompiler
import SkanCore
import SkanSchema
import SkanTestSupport
import Testing

/// Events and time in the language: what parses, what the checker says (the cases docs/LanguageReference.md does
/// not show), and the reference semantics on activities.
@Suite struct EventsCheckTests {
    static func messages(_ text: String) -> [String] {
        let source = SourceText(path: "t.skan", text: text)
        return SchemaCompiler.compile(source).diagnostics.map { DiagnosticFormatter().format($0, in: source) }
    }

    @Test func theGameSchemaChecksCleanAndHoldsItsDerivations() throws {
        let schema = try shippedSchema("Game")
        #expect(
            schema.events.map(\.name) == [
                "sign_up", "level_complete", "view_item", "add_to_cart", "purchase", "ad_revenue",
            ])
        #expect(schema.events.map(\.currency) == [nil, nil, nil, nil, "USD", "USD"])
        #expect(schema.fields.map(\.name) == ["registered", "revenue", "funnel", "levels"])
        #expect(schema.fields[0].derivation == .flag(.event(0)))
        #expect(
            schema.fields[1].derivation
                == .buckets(ActivitySource(measure: .amount, events: [4, 5], scope: .within(hours: 48))))
        guard case .firstMatch(let conditions)? = schema.fields[2].derivation else {
            Issue.record("funnel is derived by first match")
            return
        }
        #expect(conditions.count == 4)
        #expect(conditions.last == .always)
        #expect(schema.text(of: conditions[2]) == "view_item or hours >= 24")
        #expect(schema.lockCondition(window: .first) == .hours(.greaterOrEqual, 36))
        #expect(schema.text(of: schema.lockCondition(window: .second)!) == "purchase.sum >= 50")
        #expect(schema.lockCondition(window: .third) == nil)
        #expect(schema.readsActivity)
        // The schemas of bits alone read none.
        for name in ["Shop", "EventFlags", "Subscription"] { #expect(try !shippedSchema(name).readsActivity) }
    }

    @Test func unknownEventsAreNamedWithTheClosest() {
        let text = """
            schema T
            version 2
            event sign_up
            event purchase value USD
            flag joined at bit 0 when signup
            field spend at bits 1...2 buckets amount of purchse { none = 0 0..<1  some = 1 1... }
            reserved bits 3...5
            coarse { low otherwise }
            """
        #expect(
            Self.messages(text) == [
                "t.skan:5:27: error: no flag, field or event named 'signup'; did you mean 'sign_up'? [unknown-name]",
                "t.skan:6:45: error: no event named 'purchse'; did you mean 'purchase'? [unknown-name]",
            ])
    }

    @Test func eventsAreDeclaredOnceWithACurrencyCode() {
        let text = """
            schema T
            version 2
            event purchase value dollars
            event purchase
            flag paid at bit 0
            event paid
            reserved bits 1...5
            coarse { low otherwise }
            """
        #expect(
            Self.messages(text) == [
                "t.skan:3:22: error: 'dollars' is no currency code; write the ISO 4217 code, three letters such as USD or EUR [syntax]",
                "t.skan:4:7: error: event 'purchase' is declared twice; remove one [duplicate]\nt.skan:3:7: note: the first is here",
                "t.skan:6:7: error: event 'paid' has the name of a flag or field; a condition could not tell them apart: rename one [duplicate]\nt.skan:5:6: note: the flag or field is here",
            ])
    }

    @Test func aFieldDerivedFromItselfIsACycle() {
        let text = """
            schema T
            version 2
            event open
            flag loyal at bit 0 when open and loyal
            reserved bits 1...5
            coarse { low otherwise }
            """
        #expect(
            Self.messages(text).first?.hasPrefix(
                "t.skan:4:35: error: 'loyal' is derived from itself; a derived condition reads events, time and the flags and fields declared before it: move 'loyal' above, or derive it from events [derivation]"
            ) == true)
    }

    @Test func aCaseWithoutWhenInADerivedFieldIsSaid() {
        let text = """
            schema T
            version 2
            event open
            field stage at bits 0...1 {
              active = 1 when open
              none   = 0
            }
            reserved bits 2...5
            coarse { low otherwise }
            """
        #expect(
            Self.messages(text) == [
                "t.skan:6:3: error: case 'none' of 'stage' has no 'when': in a derived field every case says when it holds, and the last says 'otherwise' [derivation]"
            ])
    }

    @Test func coarseRulesOnEventsNeedTheirOtherwiseAndAreUsed() {
        let text = """
            schema T
            version 2
            event purchase value USD
            flag paid at bit 0 when purchase
            reserved bits 1...5
            coarse { high when purchase.sum >= 20  medium when paid  low otherwise  low when purchase }
            """
        #expect(
            Self.messages(text) == [
                "t.skan:6:73: warning: this 'low' rule is never used in windows 1...3: earlier rules already take every state that 'purchase' matches [unreachable]"
            ])
    }

    @Test func aOneNumberBucketAndTheCasesOfACountField() throws {
        let schema = try #require(
            SchemaCompiler.compile(
                "schema T version 2\nevent s\nfield n at bits 0...1 count of s in window\nreserved bits 2...5\ncoarse { low otherwise }"
            ).schema)
        #expect(schema.fields[0].cases.map(\.name) == ["n0", "n1", "n2", "n3"])
        #expect(schema.fields[0].cases.last?.description == "3 or more")
        #expect(schema.fields[0].derivation == .count(ActivitySource(measure: .count, events: [0], scope: .inWindow)))
    }
}

/// The reference semantics on activities: the Game schema at chosen hours, each construct's edge.
@Suite struct ActivityEvaluationTests {
    let schema: Schema = try! shippedSchema("Game")

    func event(_ name: String, at hour: Double, _ amount: Double? = nil) -> LoggedEvent {
        LoggedEvent(event: schema.eventIndex(named: name)!, hour: hour, amount: amount)
    }

    func cases(_ evaluation: ActivityEvaluation) -> [String] {
        schema.cases(of: evaluation.state).map { $0?.name ?? "?" }
    }

    @Test func nothingLoggedIsTheFirstState() {
        let evaluation = schema.evaluate(Activity(), at: 0)
        #expect(evaluation.fineValue == 0)
        #expect(evaluation.window == .first)
        #expect(evaluation.coarseValue == .low)
        #expect(!evaluation.lock)
    }

    @Test func withinCountsOnlyEventsBeforeItsHour() {
        let activity = Activity(events: [
            event("purchase", at: 10, 4), event("purchase", at: 47.9, 3), event("purchase", at: 48, 100),
        ])
        #expect(cases(schema.evaluate(activity, at: 47.9)) == ["false", "mid", "purchased", "none"])
        // The purchase at hour 48 is past `within 48 hours`.
        #expect(cases(schema.evaluate(activity, at: 60))[1] == "mid")
        // Events after the hour of evaluation are not seen yet.
        #expect(cases(schema.evaluate(activity, at: 20))[1] == "low")
    }

    @Test func inWindowCountsSinceTheWindowBegan() {
        let activity = Activity(events: [event("level_complete", at: 47), event("level_complete", at: 170)])
        #expect(cases(schema.evaluate(activity, at: 47.5))[3] == "some")
        #expect(cases(schema.evaluate(activity, at: 48))[3] == "none")
        #expect(cases(schema.evaluate(activity, at: 167.9))[3] == "none")
        #expect(cases(schema.evaluate(activity, at: 170))[3] == "some")
    }

    @Test func firstMatchTakesTheFirstCaseThatHolds() {
        #expect(cases(schema.evaluate(Activity(), at: 23.9))[2] == "none")
        #expect(cases(schema.evaluate(Activity(), at: 24))[2] == "browsed")
        let carted = Activity(events: [event("view_item", at: 1), event("add_to_cart", at: 2)])
        #expect(cases(schema.evaluate(carted, at: 3))[2] == "carted")
    }

    @Test func windowsCoarseValuesAndLocksFollowTheHour() {
        let activity = Activity(events: [event("sign_up", at: 0.1), event("purchase", at: 1, 60)])
        let first = schema.evaluate(activity, at: 35.9)
        #expect((first.window, first.coarseValue, first.lock) == (.first, .high, false))
        #expect(schema.evaluate(activity, at: 36).lock)
        let second = schema.evaluate(activity, at: 48)
        // Window 2: one purchase (not two), no levels: low; its sum of 60 locks it.
        #expect((second.window, second.coarseValue, second.lock) == (.second, .low, true))
        let third = schema.evaluate(activity, at: 168)
        #expect((third.window, third.lock) == (.third, false))
        let after = schema.evaluate(activity, at: 840)
        #expect((after.window, after.coarseValue, after.lock) == (nil, nil, false))
    }

    @Test func countOfDaysSaturatesAtTheLargestCode() throws {
        let streak = try #require(
            SchemaCompiler.compile(
                "schema Days version 1\nfield streak at bits 0...2 count of days\nreserved bits 3...5\ncoarse { low otherwise }"
            ).schema)
        #expect(streak.evaluate(Activity(), at: 23.99).fineValue == 0)
        #expect(streak.evaluate(Activity(), at: 24).fineValue == 1)
        #expect(streak.evaluate(Activity(), at: 24 * 7).fineValue == 7)
        #expect(streak.evaluate(Activity(), at: 24 * 30).fineValue == 7)
    }

    @Test func appSetFieldsKeepTheirCodes() throws {
        let shop = try shippedSchema("Shop")
        let activity = Activity(setCodes: [1: 3])
        let evaluation = shop.evaluate(activity, at: 10)
        #expect(evaluation.fineValue == 6)
        #expect(evaluation.coarseValue == .high)
        #expect(evaluation.lock)
        // A schema of bits alone evaluates as its states do, at every fine value.
        for state in shop.validStates {
            let set = Dictionary(uniqueKeysWithValues: state.codes.enumerated().map { ($0.offset, $0.element) })
            let evaluated = shop.evaluate(Activity(setCodes: set), at: 100)
            #expect(evaluated.fineValue == shop.fineValue(of: state))
            #expect(evaluated.coarseValue == shop.coarseValue(of: state, window: .second))
            #expect(evaluated.lock == shop.shouldLock(state, window: .second))
        }
    }
}
