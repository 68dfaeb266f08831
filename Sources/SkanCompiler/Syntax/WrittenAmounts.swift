public import SkanCore
public import SkanSchema

/// Where a schema writes its amounts, as the text there: every `EVENT.sum op X` of a condition and every bucket
/// range. The model keeps numbers, not their places; a fix-it that rewrites an amount needs both.
public struct WrittenAmounts: Sendable {
    /// `EVENT.sum op X` as written, from the event's name to the number's end.
    public struct Comparison: Sendable {
        /// The event's name.
        public var event: String
        /// The comparison.
        public var comparison: ComparisonOperator
        /// The number compared with.
        public var number: Double
        /// The source text from the event's name through the number (`purchase.sum >= 9.995`).
        public var text: String
        /// Where the event's name starts.
        public var location: SourceLocation
    }

    /// A case's bucket range as written (`0..<9.995`).
    public struct Bucket: Sendable {
        /// The case's name.
        public var name: String
        /// The source text from the lower bound through the upper one; the lower bound alone when the range has
        /// no upper one (`9.995...`).
        public var text: String
        /// Where the lower bound starts.
        public var location: SourceLocation
    }

    /// In source order.
    public private(set) var comparisons: [Comparison] = []
    /// In source order.
    public private(set) var buckets: [Bucket] = []

    /// None: what a schema read from elsewhere than its text (an artifact) has.
    public init() {}

    /// The amounts of `syntax`, whose text is `bytes`.
    package init(_ syntax: SchemaSyntax, bytes: [UInt8]) {
        func text(from start: SourceLocation, to end: NumberLiteral) -> String {
            let upper = end.location.offset + end.text.utf8.count
            guard start.offset <= upper, upper <= bytes.count else { return "" }
            return String(decoding: bytes[start.offset..<upper], as: UTF8.self)
        }
        func note(_ condition: ConditionSyntax?) {
            switch condition {
            case .eventMeasure(let event, let member, let op, let number)? where member.text == "sum":
                comparisons.append(
                    Comparison(
                        event: event.text, comparison: op, number: number.value,
                        text: text(from: event.location, to: number), location: event.location))
            case .not(_, let inner)?, .parenthesized(let inner)?: note(inner)
            case .all(let parts)?, .any(let parts)?:
                for part in parts { note(part) }
            default: break
            }
        }
        for declaration in syntax.declarations {
            switch declaration {
            case .flag(let flag): note(flag.condition)
            case .field(let field):
                for fieldCase in field.cases {
                    note(fieldCase.derivation?.condition)
                    if let range = fieldCase.range, !range.isSingleValue {
                        buckets.append(
                            Bucket(
                                name: fieldCase.name.text,
                                text: text(from: range.lower.location, to: range.upper ?? range.lower),
                                location: range.lower.location))
                    }
                }
            case .coarse(let block):
                for rule in block.rules { note(rule.condition) }
            case .lock(let lock):
                if case .condition(let condition) = lock.trigger { note(condition) }
            case .event, .reserved: break
            }
        }
    }

    /// The first `EVENT.sum op number` written at or after `location`: the one in the statement that starts there.
    public func comparison(_ event: String, _ op: ComparisonOperator, _ number: Double, from location: SourceLocation)
        -> Comparison?
    {
        comparisons.first {
            $0.location.offset >= location.offset && $0.event == event && $0.comparison == op && $0.number == number
        }
    }

    /// The first bucket of a case named `name` written at or after `location`: the case of the field there.
    public func bucket(_ name: String, from location: SourceLocation) -> Bucket? {
        buckets.first { $0.location.offset >= location.offset && $0.name == name }
    }
}
