import SkanCore

/// A flag or a field: a name that owns some bits of the fine value and the codes those bits may hold.
public struct Field: Hashable, Sendable {
    /// What a field holds: a flag, named cases, or buckets of a number.
    public enum Kind: Hashable, Sendable {
        /// One bit; its cases are `false` (0) and `true` (1).
        case flag
        /// Named cases.
        case cases
        /// Named cases that each cover a range of amounts (money) or counts (events).
        case buckets(BucketUnit)
    }

    /// What a bucketed number measures, which decides how its bounds are written.
    public enum BucketUnit: String, Hashable, Sendable {
        case amount, count
    }

    /// The name the schema gives the flag or field.
    public var name: String
    /// Flag, cases or buckets.
    public var kind: Kind
    /// The bits of the fine value it occupies.
    public var bits: BitRange
    /// The schema's description of it, if any.
    public var description: String?
    /// In declaration order; codes are distinct and fit `bits`.
    public var cases: [FieldCase]
    /// How the field follows from the app's events and time; nil when the app sets it.
    public var derivation: FieldDerivation?

    /// A field as the checker builds it.
    public init(
        name: String, kind: Kind, bits: BitRange, description: String?, cases: [FieldCase],
        derivation: FieldDerivation? = nil
    ) {
        self.name = name
        self.kind = kind
        self.bits = bits
        self.description = description
        self.cases = cases
        self.derivation = derivation
    }

    /// The two cases every flag has.
    public static let flagCases = [
        FieldCase(name: "false", code: 0, description: nil, bucket: nil),
        FieldCase(name: "true", code: 1, description: nil, bucket: nil),
    ]

    /// Whether this is a one-bit flag.
    public var isFlag: Bool { kind == .flag }

    /// The case with `code`, or nil.
    public func caseWithCode(_ code: Int) -> FieldCase? {
        cases.first { $0.code == code }
    }

    /// The case called `name`, or nil.
    public func caseNamed(_ name: String) -> FieldCase? {
        cases.first { $0.name == name }
    }

    /// The case whose bucket holds `value`, or nil when no bucket does (or the field has no buckets).
    public func bucketCase(for value: Double) -> FieldCase? {
        cases.first { $0.bucket?.contains(value) ?? false }
    }

    /// A total version of `bucketCase(for:)`, as generated code implements it: the bucket with the greatest
    /// lower bound at or below `value`; the lowest bucket when there is none (negative values, NaN).
    /// Where `bucketCase(for:)` has an answer, both agree, because buckets do not overlap.
    public func nearestBucketCase(for value: Double) -> FieldCase? {
        let bucketed = cases.filter { $0.bucket != nil }
        let below = bucketed.filter { $0.bucket!.lower <= value }
        return below.max { $0.bucket!.lower < $1.bucket!.lower } ?? bucketed.min { $0.bucket!.lower < $1.bucket!.lower }
    }
}

/// One value a field can take: its name, its code in the field's bits, and for buckets the range it covers.
public struct FieldCase: Hashable, Sendable {
    /// The case's name: an identifier, unique within its field.
    public var name: String
    /// The code the case is stored as in the field's bits.
    public var code: Int
    /// The schema's description of it, if any.
    public var description: String?
    /// Only in a buckets field.
    public var bucket: BucketRange?

    /// A case as the checker builds it.
    public init(name: String, code: Int, description: String?, bucket: BucketRange?) {
        self.name = name
        self.code = code
        self.description = description
        self.bucket = bucket
    }
}

/// The amounts or counts one bucket covers: `lower..<upper`, `lower...upper` or `lower...`.
public struct BucketRange: Hashable, Sendable, CustomStringConvertible {
    /// The lower bound, always included.
    public var lower: Double
    /// Nil for an open-ended range.
    public var upper: Double?
    /// Whether the upper bound is excluded (`..<`).
    public var isHalfOpen: Bool
    /// The bounds as written in the schema, for messages, tables and generated code.
    public var lowerText: String
    /// The upper bound as written, if any.
    public var upperText: String?

    /// A range from its bounds and their source text.
    public init(lower: Double, upper: Double?, isHalfOpen: Bool, lowerText: String, upperText: String?) {
        self.lower = lower
        self.upper = upper
        self.isHalfOpen = isHalfOpen
        self.lowerText = lowerText
        self.upperText = upperText
    }

    /// Whether `value` falls in the range.
    public func contains(_ value: Double) -> Bool {
        guard value >= lower else { return false }
        guard let upper else { return true }
        return isHalfOpen ? value < upper : value <= upper
    }

    /// Whether a bucket ending at `upper` reaches `next`, where the bucket above begins, leaving no value
    /// between: up to it (`..<`), or, ending on `upper`, at the next value there is: the next whole number for
    /// counts, the next whole minor unit for amounts of a currency with one (`...4.99` and `5...` of USD).
    public static func reaches(
        upper: Double, isHalfOpen: Bool, next: Double, counts: Bool, unitsPerWhole unit: Double?
    ) -> Bool {
        if isHalfOpen { return upper >= next }
        if counts { return upper + 1 >= next }
        return (MinorUnitSum.wholeAbove(upper, unitsPerWhole: unit) ?? upper) >= next
    }

    /// The range as the schema writes it: `0.01..<5`, `20...`.
    public var description: String {
        guard let upperText else { return "\(lowerText)..." }
        return lowerText + (isHalfOpen ? "..<" : "...") + upperText
    }
}
