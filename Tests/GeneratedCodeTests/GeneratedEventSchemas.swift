import GeneratedPlatforms
import GeneratedPublic

/// A generated schema type as the property test drives it: its events by index in `Schema.events` (amounts
/// for value events), log, advance, and what it would send.
protocol GeneratedEventSchema: SchemaFileSource {
    associatedtype Event
    associatedtype Window: RawRepresentable<Int>
    associatedtype Coarse: RawRepresentable<String>
    /// The schema file, relative to Schemas/.
    static var schemaFile: String { get }
    /// The generated event for each of the schema's events, in declaration order, given an amount.
    static var events: [(Double) -> Event] { get }
    init()
    mutating func log(_ event: Event, at hour: Double)
    mutating func advance(to hour: Double)
    var fineValue: Int { get }
    func coarseValue(in window: Window) -> Coarse
    func shouldLock(in window: Window) -> Bool
}

extension GeneratedEventSchema {
    static var schemaPath: String { "Schemas/" + schemaFile }
}

extension Game: GeneratedEventSchema {
    static let schemaFile = "Game.skan"
    static var events: [(Double) -> Event] {
        [
            { _ in .sign_up },
            { _ in .level_complete },
            { _ in .view_item },
            { _ in .add_to_cart },
            { .purchase(amount: $0) },
            { .ad_revenue(amount: $0) },
        ]
    }
}

extension Adjust63: GeneratedEventSchema {
    static let schemaFile = "Platforms/Adjust63.skan"
    static var events: [(Double) -> Event] {
        [
            { _ in .session },
            { .purchase(amount: $0) },
            { .ad_revenue(amount: $0) },
        ]
    }
}

extension AdjustConversionEvents: GeneratedEventSchema {
    static let schemaFile = "Platforms/AdjustConversionEvents.skan"
    static var events: [(Double) -> Event] {
        [
            { _ in .registration },
            { _ in .tutorial_completed },
            { _ in .level_5 },
            { _ in .add_to_cart },
            { _ in .purchase },
            { _ in .subscription },
        ]
    }
}

extension AppsFlyerFlexible: GeneratedEventSchema {
    static let schemaFile = "Platforms/AppsFlyerFlexible.skan"
    static var events: [(Double) -> Event] {
        [
            { _ in .af_complete_registration },
            { _ in .af_level_achieved },
            { .af_purchase(amount: $0) },
            { .af_ad_revenue(amount: $0) },
        ]
    }
}

extension Datalyr: GeneratedEventSchema {
    static let schemaFile = "Platforms/Datalyr.skan"
    static var events: [(Double) -> Event] {
        [
            { .purchase(amount: $0) },
            { _ in .add_to_cart },
            { _ in .begin_checkout },
        ]
    }
}

extension Flurry: GeneratedEventSchema {
    static let schemaFile = "Platforms/Flurry.skan"
    static var events: [(Double) -> Event] {
        [
            { _ in .registration },
            { _ in .login },
            { _ in .subscription },
            { _ in .in_app_purchase },
        ]
    }
}

extension GA4: GeneratedEventSchema {
    static let schemaFile = "Platforms/GA4.skan"
    static var events: [(Double) -> Event] {
        [
            { _ in .first_open },
            { _ in .tutorial_complete },
            { _ in .level_up },
            { .in_app_purchase(amount: $0) },
            { .ad_impression(amount: $0) },
        ]
    }
}

extension GoogleAds: GeneratedEventSchema {
    static let schemaFile = "Platforms/GoogleAds.skan"
    static var events: [(Double) -> Event] {
        [
            { _ in .first_open },
            { _ in .sign_up },
            { .purchase(amount: $0) },
            { .subscribe(amount: $0) },
        ]
    }
}

extension MetaSDK: GeneratedEventSchema {
    static let schemaFile = "Platforms/MetaSDK.skan"
    static var events: [(Double) -> Event] {
        [
            { _ in .fb_skadnetwork_test1 },
            { .Subscribe(amount: $0) },
            { .fb_mobile_purchase(amount: $0) },
            { .fb_mobile_purchase_jpy(amount: $0) },
        ]
    }
}

extension SKANStandardEvents: GeneratedEventSchema {
    static let schemaFile = "Platforms/SKANStandardEvents.skan"
    static var events: [(Double) -> Event] {
        [
            { _ in .sign_up },
            { _ in .purchase },
        ]
    }
}

extension SKANStandardRetention: GeneratedEventSchema {
    static let schemaFile = "Platforms/SKANStandardRetention.skan"
    static var events: [(Double) -> Event] { [] }
}

extension SKANStandardRevenue: GeneratedEventSchema {
    static let schemaFile = "Platforms/SKANStandardRevenue.skan"
    static var events: [(Double) -> Event] {
        [
            { .iap(amount: $0) },
            { .ad_revenue(amount: $0) },
        ]
    }
}
