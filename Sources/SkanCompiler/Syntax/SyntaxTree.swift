/// The parsed form of a schema: what was written and where, before any meaning is checked.
/// Every node keeps the locations that diagnostics point at.
public struct SchemaSyntax: Sendable {
    /// Where the `schema` keyword stands (the first token when the header is missing).
    public var location: SourceLocation
    public var name: Identifier?
    public var version: IntegerLiteral?
    public var declarations: [DeclarationSyntax]
}

public struct Identifier: Hashable, Sendable {
    public var text: String
    public var location: SourceLocation
}

public struct IntegerLiteral: Hashable, Sendable {
    public var value: Int
    public var location: SourceLocation
}

public struct StringLiteral: Hashable, Sendable {
    public var value: String
    public var location: SourceLocation
}

/// A bucket bound: an integer or a decimal like `0.01`, kept as written for messages and rendering.
public struct NumberLiteral: Hashable, Sendable {
    public var text: String
    public var value: Double
    public var isInteger: Bool
    public var location: SourceLocation
}

/// `bit 3` or `bits 1...2`.
public struct BitsSyntax: Hashable, Sendable {
    public var lower: IntegerLiteral
    /// Nil for `bit N`.
    public var upper: IntegerLiteral?

    public var location: SourceLocation { lower.location }
}

/// `window 1` or `windows 2...3`.
public struct WindowsSyntax: Hashable, Sendable {
    public var lower: IntegerLiteral
    public var upper: IntegerLiteral?
}

public enum DeclarationSyntax: Sendable {
    case flag(FlagSyntax)
    case field(FieldSyntax)
    case reserved(ReservedSyntax)
    case coarse(CoarseBlockSyntax)
    case lock(LockSyntax)
}

public struct FlagSyntax: Sendable {
    public var keyword: SourceLocation
    public var name: Identifier
    public var bit: BitsSyntax
    public var description: StringLiteral?
}

public struct FieldSyntax: Sendable {
    public enum BucketUnit: String, Sendable { case amount, count }

    public var keyword: SourceLocation
    public var name: Identifier
    public var bits: BitsSyntax
    public var description: StringLiteral?
    /// `buckets amount` or `buckets count`, with the location of `buckets`.
    public var buckets: (unit: BucketUnit, location: SourceLocation)?
    public var cases: [CaseSyntax]
}

public struct CaseSyntax: Sendable {
    public var name: Identifier
    public var code: IntegerLiteral
    public var description: StringLiteral?
    public var range: BucketRangeSyntax?
}

/// `0..<0.01`, `0...1` or `100...`.
public struct BucketRangeSyntax: Hashable, Sendable {
    public var lower: NumberLiteral
    /// Nil for an open-ended range.
    public var upper: NumberLiteral?
    public var isHalfOpen: Bool

    public var location: SourceLocation { lower.location }
}

public struct ReservedSyntax: Sendable {
    public var keyword: SourceLocation
    public var bits: BitsSyntax
    public var description: StringLiteral?
}

public struct CoarseBlockSyntax: Sendable {
    public var keyword: SourceLocation
    /// Nil: the block applies to every window that has no block of its own.
    public var windows: WindowsSyntax?
    public var rules: [CoarseRuleSyntax]
}

public struct CoarseRuleSyntax: Sendable {
    public var value: CoarseValue
    public var location: SourceLocation
    /// Nil for `otherwise`.
    public var condition: ConditionSyntax?
}

public struct LockSyntax: Sendable {
    public var keyword: SourceLocation
    public var windows: WindowsSyntax?
    public var condition: ConditionSyntax
}

/// A condition as written. `and` and `or` chains are flat lists, so long chains never nest deeply.
public indirect enum ConditionSyntax: Sendable {
    /// A bare name: a flag that must be set.
    case name(Identifier)
    /// `field op case`.
    case comparison(Identifier, ComparisonOperator, Identifier)
    case not(SourceLocation, ConditionSyntax)
    case all([ConditionSyntax])
    case any([ConditionSyntax])
}
