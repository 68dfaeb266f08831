import SkanCore
import SkanPostbacks
public import SkanSchema

/// What a report counts, derived once from the versions, for `PostbackReport` and the warehouse views alike:
/// the field columns with every case each can show, and the `buckets amount` fields revenue is totalled from.
public struct ReportColumns: Sendable {
    /// A field column (as `skanc postbacks` names it) and its cases' names, the newest version's first.
    public struct FieldColumn: Sendable {
        /// The field's name in snake case (`payment_tier`), as the CSV headers, JSON keys and SQL views spell it.
        public var name: String
        /// Every case a row can show in it.
        public var cases: [String]
    }

    /// One range of a `buckets amount` field: a case and the amounts it covers.
    public struct RevenueRange: Sendable {
        /// The case's name as the schema declares it (`mid`).
        public var name: String
        /// The range as the schema writes it (`0.01..<5`, `20...`).
        public var text: String
        /// Its lower bound, its mid-point and its upper bound (nil when open-ended; then the mid-point is the
        /// lower bound, a lower estimate).
        public var low: DecimalAmount
        /// The mid-point (the lower bound when open-ended).
        public var mid: DecimalAmount
        /// The upper bound; nil when open-ended.
        public var high: DecimalAmount?
    }

    /// A `buckets amount` field: its column, its currency (the events' it sums; nil for a field the app sets),
    /// its ranges, and for each fine value 0...63 the range it shows (nil: none, or not this field's version).
    public struct RevenueField: Sendable {
        /// The field's column (its name in snake case), which the revenue is reported under.
        public var column: String
        /// The ISO 4217 code of the amounts, when the schema says it.
        public var currency: String?
        /// The ranges, in the order the newest version declares them.
        public var ranges: [RevenueRange]
        /// For each fine value, the index in `ranges` of the range it shows.
        public var rangeOfFine: [Int?]
        /// Per coarse value (low, medium, high), the amounts a window-1 postback with only that coarse value can
        /// stand for (`coarseBounds(of:versions:scale:)`).
        public var coarseBounds: [AmountBound] = []
        /// Per range, what an install showing it stands for in an estimate, from a prior's amounts
        /// (`RevenuePrior`); nil without a prior for this field: the estimate then takes the ranges' mid-points.
        public var withinRanges: [WithinRange]? = nil
        /// The prior's amounts, for the spread of installs a fine value does not place in a range.
        var prior: RevenuePrior.Distribution? = nil

        /// The field with `prior`'s amounts as what its ranges stand for.
        mutating func read(_ prior: RevenuePrior.Distribution) {
            self.prior = prior
            withinRanges = ranges.map { WithinRange($0, prior: prior) }
        }
    }

    /// One column per field of any live version: the newest version's fields in order, then older versions' others.
    public let fields: [FieldColumn]
    /// The amount fields whose bounds could be read exactly; those that could not are in `unreadable`.
    public internal(set) var revenue: [RevenueField]
    /// Amount fields left out of the revenue, with why.
    public let unreadable: [String]
    /// Each fine value's window-1 coarse value (`coarseOfFine(_:)`).
    public let coarseOfFine: [Int?]
    /// Digits after the decimal point every amount carries: one more than any bound is written with, so
    /// every mid-point is exact.
    public let scale: Int
    /// 10^`scale`: how many units make one of the currency (1 when it does not fit, and then no bound could be
    /// read, so there is no revenue to divide).
    public var unitsPerAmount: Int { DecimalAmount.power(scale) ?? 1 }

    /// The columns of `versions`.
    public init(versions: LiveVersions) {
        let newestFirst = Array(versions.schemas.reversed())
        fields = versions.fieldColumns.map { column in
            var names: [String] = []
            for schema in newestFirst {
                for field in schema.fields where ColumnNames.snakeCase(field.name) == column.name {
                    for fieldCase in field.cases where !names.contains(fieldCase.name) { names.append(fieldCase.name) }
                }
            }
            return FieldColumn(name: column.name, cases: names)
        }
        let amountFields = newestFirst.flatMap { schema in
            schema.fields.filter { $0.kind == .buckets(.amount) }.map { (schema, $0) }
        }
        let digits = amountFields.flatMap { $0.1.cases }.compactMap(\.bucket).flatMap { [$0.lowerText, $0.upperText] }
            .compactMap { $0?.split(separator: ".").dropFirst().first?.count }
        scale = (digits.max() ?? 0) + 1
        var revenue: [RevenueField] = []
        var unreadable: [String] = []
        for column in versions.fieldColumns.map(\.name) {
            let owned = amountFields.filter { ColumnNames.snakeCase($0.1.name) == column }
            guard !owned.isEmpty else { continue }
            var field = RevenueField(
                column: column, currency: Self.currency(of: owned[0].1, in: owned[0].0), ranges: [],
                rangeOfFine: Array(repeating: nil, count: 64))
            var readable = true
            for (schema, declared) in owned {
                for fieldCase in declared.cases {
                    guard let bucket = fieldCase.bucket else { continue }
                    guard let range = Self.range(fieldCase.name, bucket, scale: scale) else {
                        readable = false
                        continue
                    }
                    if !field.ranges.contains(where: { $0.name == range.name && $0.text == range.text }) {
                        field.ranges.append(range)
                    }
                }
                for fine in Schema.fineValueRange {
                    let code = (fine >> declared.bits.lower) & declared.bits.maximumCode
                    guard case .version(let owner) = versions.owner(of: fine), owner.version == schema.version,
                        let fieldCase = declared.caseWithCode(code), let bucket = fieldCase.bucket
                    else { continue }
                    field.rangeOfFine[fine] = field.ranges.firstIndex {
                        $0.name == fieldCase.name && $0.text == bucket.description
                    }
                }
            }
            if readable {
                field.coarseBounds = Self.coarseBounds(of: column, versions: versions, scale: scale)
                revenue.append(field)
            } else {
                unreadable.append(column)
            }
        }
        self.revenue = revenue
        self.unreadable = unreadable
        coarseOfFine = Self.coarseOfFine(versions)
    }

    private static func range(_ name: String, _ bucket: BucketRange, scale: Int) -> RevenueRange? {
        guard let low = DecimalAmount(bucket.lowerText, scale: scale) else { return nil }
        guard let upperText = bucket.upperText else {
            return RevenueRange(name: name, text: bucket.description, low: low, mid: low, high: nil)
        }
        guard let high = DecimalAmount(upperText, scale: scale), let mid = DecimalAmount.midpoint(low, high) else {
            return nil
        }
        return RevenueRange(name: name, text: bucket.description, low: low, mid: mid, high: high)
    }

    /// The currency of the events a derived amount field sums, when they share one.
    private static func currency(of field: Field, in schema: Schema) -> String? {
        guard case .buckets(let source) = field.derivation else { return nil }
        let currencies = Set(source.events.compactMap { schema.events[$0].currency })
        return currencies.count == 1 ? currencies.first : nil
    }
}
