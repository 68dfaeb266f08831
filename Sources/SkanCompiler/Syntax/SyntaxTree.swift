package import SkanCore
package import SkanSchema

/// The parsed form of a schema: what was written and where, before any meaning is checked.
/// Every node keeps the locations that diagnostics point at.
package struct SchemaSyntax: Sendable {
    /// Where the `schema` keyword stands (the first token when the header is missing).
    package var location: SourceLocation
    package var name: Identifier?
    package var version: IntegerLiteral?
    package var declarations: [DeclarationSyntax]
}

package struct Identifier: Hashable, Sendable {
    package var text: String
    package var location: SourceLocation
}

package struct IntegerLiteral: Hashable, Sendable {
    package var value: Int
    package var location: SourceLocation
}

package struct StringLiteral: Hashable, Sendable {
    package var value: String
    package var location: SourceLocation
}

/// A bucket bound: an integer or a decimal like `0.01`, kept as written for messages and rendering.
package struct NumberLiteral: Hashable, Sendable {
    package var text: String
    package var value: Double
    package var isInteger: Bool
    package var location: SourceLocation
}

/// `bit 3` or `bits 1...2`.
package struct BitsSyntax: Hashable, Sendable {
    package var lower: IntegerLiteral
    /// Nil for `bit N`.
    package var upper: IntegerLiteral?

    package var location: SourceLocation { lower.location }
}

/// `window 1` or `windows 2...3`.
package struct WindowsSyntax: Hashable, Sendable {
    package var lower: IntegerLiteral
    package var upper: IntegerLiteral?
}

package enum DeclarationSyntax: Sendable {
    case event(EventSyntax)
    case flag(FlagSyntax)
    case field(FieldSyntax)
    case reserved(ReservedSyntax)
    case coarse(CoarseBlockSyntax)
    case lock(LockSyntax)
}

package struct FlagSyntax: Sendable {
    package var keyword: SourceLocation
    package var name: Identifier
    package var bit: BitsSyntax
    package var description: StringLiteral?
    /// `when COND`: a derived flag, set while the condition holds; nil: the app sets it.
    package var condition: ConditionSyntax? = nil
}

package struct FieldSyntax: Sendable {
    package enum BucketUnit: String, Sendable { case amount, count }

    package var keyword: SourceLocation
    package var name: Identifier
    package var bits: BitsSyntax
    package var description: StringLiteral?
    /// `buckets amount` or `buckets count`, with the location of `buckets`.
    package var buckets: (unit: BucketUnit, location: SourceLocation)?
    package var cases: [CaseSyntax]
    /// `of E1 + E2 [scope]` after `buckets amount|count`, or the whole of `count of …` (a field without cases,
    /// whose code is the number itself).
    package var source: SourceSyntax? = nil
    /// Whether the field is written `count of …`, with no cases.
    package var isCount: Bool { source != nil && buckets == nil }
}

package struct CaseSyntax: Sendable {
    package var name: Identifier
    package var code: IntegerLiteral
    package var description: StringLiteral?
    package var range: BucketRangeSyntax?
    /// `when COND` or `otherwise` in a derived field; nil in a field the app sets.
    package var derivation: CaseDerivationSyntax? = nil
}

/// `0..<0.01`, `0...1` or `100...`.
package struct BucketRangeSyntax: Hashable, Sendable {
    package var lower: NumberLiteral
    /// Nil for an open-ended range.
    package var upper: NumberLiteral?
    package var isHalfOpen: Bool
    /// Written as one number (`3`), meaning `3...3`.
    package var isSingleValue = false

    package var location: SourceLocation { lower.location }

    /// The range as written: `0.01..<5`, `20...`, `3`.
    package var text: String {
        isSingleValue ? lower.text : lower.text + (isHalfOpen ? "..<" : "...") + (upper?.text ?? "")
    }
}

package struct ReservedSyntax: Sendable {
    package var keyword: SourceLocation
    package var bits: BitsSyntax
    /// `= N`: the code the bits hold in this layout (a version marker); nil: zero.
    package var code: IntegerLiteral?
    package var description: StringLiteral?
}

package struct CoarseBlockSyntax: Sendable {
    package var keyword: SourceLocation
    /// Nil: the block applies to every window that has no block of its own.
    package var windows: WindowsSyntax?
    package var rules: [CoarseRuleSyntax]
}

package struct CoarseRuleSyntax: Sendable {
    /// Nil for `nothing`.
    package var value: CoarseValue?
    package var location: SourceLocation
    /// Nil for `otherwise`.
    package var condition: ConditionSyntax?
}

package struct LockSyntax: Sendable {
    /// `when COND` or `after N hours`.
    package enum Trigger: Sendable {
        case condition(ConditionSyntax)
        case after(hours: NumberLiteral)
    }

    package var keyword: SourceLocation
    package var windows: WindowsSyntax?
    package var trigger: Trigger
}

/// A condition as written. `and` and `or` chains are flat lists, so long chains never nest deeply.
package indirect enum ConditionSyntax: Sendable {
    /// A bare name: a flag that must be set.
    case name(Identifier)
    /// `field op case`.
    case comparison(Identifier, ComparisonOperator, Identifier)
    /// `EVENT.count op N` or `EVENT.sum op X`.
    case eventMeasure(Identifier, member: Identifier, ComparisonOperator, NumberLiteral)
    /// `hours op X`: hours since first launch.
    case hours(SourceLocation, ComparisonOperator, NumberLiteral)
    case not(SourceLocation, ConditionSyntax)
    case all([ConditionSyntax])
    case any([ConditionSyntax])
    /// `( cond )`: kept, so the condition can be shown as its author grouped it.
    case parenthesized(ConditionSyntax)
}
