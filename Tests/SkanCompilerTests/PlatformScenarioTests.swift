import Foundation
import SkanCompiler
import SkanCore
import SkanSchema
import SkanTestSupport
import Testing

/// A platform's configuration (Schemas/Platforms/`name`.skan) evaluated on journeys: what the platform's own
/// documentation or code says each journey gives.
struct PlatformPort {
    let schema: Schema

    init(_ name: String) throws {
        let text = try String(
            contentsOf: Paths.schemas.appendingPathComponent("Platforms/\(name).skan"), encoding: .utf8)
        let result = SchemaCompiler.compile(text, path: name + ".skan")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        schema = try #require(result.schema)
    }

    /// The evaluation at `hour` after `events` (name, hour, amount).
    func evaluate(_ events: [(String, Double, Double?)], at hour: Double) -> ActivityEvaluation {
        let logged = events.map { LoggedEvent(event: schema.eventIndex(named: $0.0)!, hour: $0.1, amount: $0.2) }
        return schema.evaluate(Activity(events: logged), at: hour)
    }

    /// The fine value at `hour` after `events`.
    func fine(_ events: [(String, Double, Double?)], at hour: Double = 1) -> Int {
        evaluate(events, at: hour).fineValue
    }
}

@Suite struct PlatformScenarioTests {
    /// FlurrySKAdNetwork.h: Registration 0001, Login 0010, Subscription 0100, InAppPurchase 1000; days 0-3 above.
    @Test func flurrySetsOneBitPerEventAndTheDaysAbove() throws {
        let flurry = try PlatformPort("Flurry")
        #expect(flurry.fine([("registration", 0.5, nil)]) == 0b0001)
        #expect(flurry.fine([("login", 0.5, nil)]) == 0b0010)
        #expect(flurry.fine([("subscription", 0.5, nil)]) == 0b0100)
        #expect(flurry.fine([("in_app_purchase", 0.5, nil)]) == 0b1000)
        #expect(flurry.fine([("registration", 0.5, nil), ("login", 30, nil)], at: 50) == 0b10_0011)
        // Retention stops at 3 days.
        #expect(flurry.fine([], at: 24 * 9) == 0b11_0000)
    }

    /// The SKAN standard's event model: 001 install, 010 sign up, 100 first purchase, 011 third purchase; days
    /// 0-7 on bits 3-5.
    @Test func theStandardsEventModelUsesItsOwnCodes() throws {
        let model = try PlatformPort("SKANStandardEvents")
        #expect(model.fine([]) == 0b001)
        #expect(model.fine([("sign_up", 0.1, nil)]) == 0b010)
        #expect(model.fine([("sign_up", 0.1, nil), ("purchase", 0.2, nil)]) == 0b100)
        let three =
            [("purchase", 0.2, nil), ("purchase", 0.3, nil), ("purchase", 0.4, nil)] as [(String, Double, Double?)]
        #expect(model.fine(three) == 0b011)
        #expect(model.fine(three, at: 24 * 5 + 1) == 5 << 3 | 0b011)
        #expect(model.fine([], at: 24 * 20) == 7 << 3 | 0b001)
    }

    /// The SKAN standard's revenue and retention models.
    @Test func theStandardsRevenueAndRetentionModels() throws {
        let revenue = try PlatformPort("SKANStandardRevenue")
        #expect(revenue.fine([("iap", 1, 4.99), ("ad_revenue", 2, 0.02)]) == 4)
        #expect(revenue.fine([("iap", 1, 300)], at: 24 * 3) == 3 << 4 | 15)
        let retention = try PlatformPort("SKANStandardRetention")
        #expect(retention.fine([], at: 0) == 0)
        #expect(retention.fine([], at: 24 * 34 + 23) == 34)
        #expect(retention.evaluate([], at: 100).coarseValue == .high)
        #expect(retention.evaluate([], at: 50).coarseValue == .medium)
    }

    /// Datalyr's e-commerce template: purchase bit 0, its revenue tier on bits 1-3, add_to_cart bit 4,
    /// begin_checkout bit 5; the coarse value from revenue; a purchase locks.
    @Test func datalyrsTemplateGivesTheEncodersValues() throws {
        let datalyr = try PlatformPort("Datalyr")
        // The encoder: purchase with revenue 30 sets bit 0 and tier 4 (binary 100) on bits 1-3: 1 + 8.
        let purchase = datalyr.evaluate([("purchase", 1, 30)], at: 1)
        #expect(purchase.fineValue == 9)
        #expect(purchase.coarseValue == .medium)
        #expect(purchase.lock)
        #expect(datalyr.fine([("add_to_cart", 1, nil)]) == 16)
        #expect(datalyr.fine([("begin_checkout", 1, nil)]) == 32)
        #expect(datalyr.evaluate([("purchase", 1, 0.5)], at: 1).coarseValue == .low)
        #expect(datalyr.evaluate([("purchase", 1, 60)], at: 1).coarseValue == .high)
        // The template's signup on bit 6 does not fit six bits: the checker says so.
        let text = try String(
            contentsOf: Paths.schemas.appendingPathComponent("Platforms/Datalyr.skan"), encoding: .utf8)
        let withBit6 = SchemaCompiler.compile(text + "\nevent signup\nflag signedUp at bit 6 when signup\n")
        #expect(withBit6.diagnostics.contains { $0.code == .bitRange })
    }

    /// GA4: the first conversion value whose event mappings hold, bounds inclusive; lockEnabled on bigSpender.
    @Test func ga4TakesTheFirstConversionValueThatHolds() throws {
        let ga4 = try PlatformPort("GA4")
        #expect(ga4.fine([("first_open", 0, nil)]) == 1)
        #expect(ga4.fine([("first_open", 0, nil), ("tutorial_complete", 1, nil)]) == 4)
        let levels = (0..<3).map { ("level_up", 2 + Double($0), nil as Double?) }
        #expect(ga4.fine([("tutorial_complete", 1, nil)] + levels, at: 6) == 8)
        #expect(ga4.fine([("in_app_purchase", 1, 4.99)]) == 32)
        #expect(ga4.fine([("in_app_purchase", 1, 10)]) == 48)
        #expect(ga4.fine([("in_app_purchase", 1, 49.99)]) == 48)
        let big = ga4.evaluate([("in_app_purchase", 1, 50)], at: 1)
        #expect(big.fineValue == 63 && big.lock && big.coarseValue == .high)
        // Window 2's own list.
        #expect(ga4.evaluate([("in_app_purchase", 1, 25)], at: 60).coarseValue == .high)
        #expect(ga4.evaluate(levels, at: 60).coarseValue == .low)
    }

    /// Google Ads: time post install is the hour the user was last active; the lock triggers per postback.
    @Test func googleAdsReadsTheHourOfLastActivity() throws {
        let ads = try PlatformPort("GoogleAds")
        #expect(ads.fine([("purchase", 2, 25)], at: 20) == 32)
        #expect(ads.fine([("purchase", 2, 25)], at: 30) == 40)
        #expect(ads.evaluate([("purchase", 2, 25)], at: 30).lock)
        #expect(ads.fine([("purchase", 2, 5)], at: 3) == 16)
        #expect(ads.fine([("purchase", 2, 5), ("purchase", 3, 5)], at: 4) == 24)
        #expect(ads.fine([("sign_up", 2, nil)], at: 4) == 8)
        let subscribed = ads.evaluate([("subscribe", 60, 9.99)], at: 60)
        #expect(subscribed.coarseValue == .high && subscribed.lock)
        let third = ads.evaluate([("subscribe", 200, 60)], at: 200)
        #expect(third.window == .third && third.coarseValue == .high && third.lock)
    }

    /// Adjust's conversion events: one bit per event, counted once; the window locks at hour 24.
    @Test func adjustsModes() throws {
        let events = try PlatformPort("AdjustConversionEvents")
        #expect(events.fine([("registration", 1, nil), ("registration", 2, nil)]) == 1)
        #expect(events.fine([("subscription", 1, nil), ("level_5", 2, nil)], at: 3) == 0b10_0100)
        #expect(!events.evaluate([], at: 23.9).lock)
        #expect(events.evaluate([], at: 24).lock)
        let values = try PlatformPort("Adjust63")
        // Total revenue: purchases and ad revenue together; sessions on bits 4-5.
        #expect(values.fine([("purchase", 1, 8), ("ad_revenue", 2, 3)], at: 3) == 7)
        let sessions = (0..<4).map { ("session", Double($0), nil as Double?) }
        #expect(values.fine(sessions, at: 4) == 2 << 4)
        #expect(values.evaluate([], at: 36).lock)
    }

    /// AppsFlyer's flexible mode: each window measures only its own days.
    @Test func appsFlyerMeasuresEachWindowOnItsOwn() throws {
        let flexible = try PlatformPort("AppsFlyerFlexible")
        let dayOne: [(String, Double, Double?)] = [("af_purchase", 10, 5), ("af_complete_registration", 11, nil)]
        #expect(flexible.fine(dayOne, at: 12) == 3 | 1 << 3)
        let later = flexible.evaluate(dayOne, at: 60)
        #expect(later.window == .second && later.coarseValue == .low)
        let windowTwo = flexible.evaluate(dayOne + [("af_purchase", 70, 25)], at: 70)
        #expect(windowTwo.coarseValue == .high)
        #expect(flexible.evaluate([], at: 120).lock && !flexible.evaluate([], at: 119).lock)
    }
}
