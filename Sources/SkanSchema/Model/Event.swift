import SkanCore

/// An event the app logs: counted each time, and for a value event summed in one currency.
public struct Event: Hashable, Sendable {
    /// The event's name, as the app logs it.
    public var name: String
    /// The ISO 4217 code of a value event's amounts; nil for an event that is only counted.
    public var currency: String?

    /// An event as the checker builds it.
    public init(name: String, currency: String?) {
        self.name = name
        self.currency = currency
    }

    /// Whether the event carries an amount.
    public var hasValue: Bool { currency != nil }

    /// Minor units of the event's currency per whole unit (100 for USD); nil for a counted event or a currency
    /// without a minor unit. Its amounts are summed in whole minor units (`MinorUnitSum`).
    public var unitsPerWhole: Double? { currency.flatMap(CurrencyMinorUnits.unitsPerWhole(of:)) }
}

/// What a derived field measures over an activity, and over which span of it.
public struct ActivitySource: Hashable, Sendable {
    /// What is measured.
    public enum Measure: String, Hashable, Sendable {
        /// The sum of the events' amounts.
        case amount
        /// How many times the events were logged.
        case count
        /// Whole days since first launch.
        case days
    }

    /// Which events count.
    public enum Scope: Hashable, Sendable {
        /// Every event since first launch.
        case sinceFirstLaunch
        /// Events logged before this hour after first launch.
        case within(hours: Double)
        /// Events logged since the current conversion window began.
        case inWindow
    }

    /// What is measured.
    public var measure: Measure
    /// Indices in `Schema.events`; empty for `days`.
    public var events: [Int]
    /// Which events count.
    public var scope: Scope

    /// A source as the checker builds it.
    public init(measure: Measure, events: [Int], scope: Scope) {
        self.measure = measure
        self.events = events
        self.scope = scope
    }
}

/// How a derived flag or field takes its code from the activity; app-set fields have none.
public enum FieldDerivation: Hashable, Sendable {
    /// A flag set while the condition holds.
    case flag(Condition)
    /// Cases chosen by first match, in the order written; one condition per case, the last `.always`.
    case firstMatch([Condition])
    /// The bucket that holds the source's number.
    case buckets(ActivitySource)
    /// The source's number itself, saturating at the field's largest code.
    case count(ActivitySource)
}
