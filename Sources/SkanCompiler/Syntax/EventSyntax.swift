package import SkanCore
import SkanSchema

/// `event NAME [value CURRENCY]`: an event the app logs, counted, and with an amount in one currency when it has
/// a value.
package struct EventSyntax: Sendable {
    package var keyword: SourceLocation
    package var name: Identifier
    /// The ISO 4217 code after `value`; nil for an event that is only counted.
    package var currency: Identifier?
}

/// What a derived field measures: `amount of E1 + E2`, `count of E1 + E2` or `count of days`, with a scope.
package struct SourceSyntax: Sendable {
    package enum Measure: String, Sendable {
        /// The sum of the events' amounts.
        case amount
        /// How many times the events were logged.
        case count
        /// Whole days since first launch.
        case days
    }

    package enum Scope: Sendable {
        /// Everything since first launch.
        case sinceFirstLaunch
        /// `within N hours`: events logged before hour N.
        case within(hours: NumberLiteral)
        /// `in window`: events logged since the current window began.
        case inWindow(SourceLocation)
    }

    /// Where `of` (or `count`) stands.
    package var location: SourceLocation
    package var measure: Measure
    /// The events, in order; empty for `days`.
    package var events: [Identifier]
    package var scope: Scope
}

/// `= CODE when COND` or `= CODE otherwise`: how a derived field's case is chosen (the first that holds).
package struct CaseDerivationSyntax: Sendable {
    /// Where `when` or `otherwise` stands.
    package var location: SourceLocation
    /// Nil for `otherwise`.
    package var condition: ConditionSyntax?
}
