import SkanCore
import SkanSchema

/// What a window-1 coarse value says about an amount field: a postback that shows only `high` still comes from
/// one of the states whose coarse rules give `high`, and under `high when revenue >= mid` those states hold at
/// least `mid`'s lower bound. Derived once from the versions, for the report's hard bounds and its estimate.
extension ReportColumns {
    /// The amounts a value can stand for: `low` at least, `high` at most (nil: no upper bound).
    public struct AmountBound: Sendable, Equatable {
        /// The least amount.
        public var low: DecimalAmount
        /// The greatest amount; nil when nothing bounds it.
        public var high: DecimalAmount?
    }

    /// Per coarse value (low, medium, high), the bound on `field`'s amount of a window-1 postback that shows that
    /// coarse value and no fine value: over every live version's valid states whose window-1 coarse value it is
    /// (a postback without a fine value does not say its version). A state whose coarse value turns on events
    /// or time could show any; a version without the field bounds nothing. A coarse value no state has is
    /// bounded by nothing either (the postback contradicts the schema; it is still counted).
    static func coarseBounds(of column: String, versions: LiveVersions, scale: Int) -> [AmountBound] {
        let zero = DecimalAmount(units: 0, scale: scale)
        var bounds: [AmountBound?] = Array(repeating: nil, count: CoarseValue.allCases.count)
        func include(_ bound: AmountBound, in coarse: Int) {
            guard let old = bounds[coarse] else {
                bounds[coarse] = bound
                return
            }
            var high: DecimalAmount? = nil
            if let a = old.high, let b = bound.high { high = max(a, b) }
            bounds[coarse] = AmountBound(low: min(old.low, bound.low), high: high)
        }
        for schema in versions.schemas {
            let field = schema.fields.first { ColumnNames.snakeCase($0.name) == column && $0.kind == .buckets(.amount) }
            for fine in Schema.fineValueRange {
                guard case .success(let state) = schema.decode(fineValue: fine) else { continue }
                var bound = AmountBound(low: zero, high: nil)
                if let field,
                    let bucket = field.caseWithCode((fine >> field.bits.lower) & field.bits.maximumCode)?.bucket,
                    let low = DecimalAmount(bucket.lowerText, scale: scale)
                {
                    bound = AmountBound(low: low, high: bucket.upperText.flatMap { DecimalAmount($0, scale: scale) })
                }
                if let coarse = schema.coarseValue(of: state, window: .first) {
                    include(bound, in: CoarseValue.allCases.firstIndex(of: coarse)!)
                } else {
                    for coarse in CoarseValue.allCases.indices { include(bound, in: coarse) }
                }
            }
        }
        return bounds.map { $0 ?? AmountBound(low: zero, high: nil) }
    }

    /// For each fine value 0...63, its state's window-1 coarse value (an index in `CoarseValue.allCases`) under
    /// the version that owns it; nil when events or time decide it or no version owns the value. What the
    /// estimate sorts fine-value postbacks by, to stand in for coarse-only ones.
    static func coarseOfFine(_ versions: LiveVersions) -> [Int?] {
        Schema.fineValueRange.map { fine in
            guard case .version(let schema) = versions.owner(of: fine),
                case .success(let state) = schema.decode(fineValue: fine),
                let coarse = schema.coarseValue(of: state, window: .first)
            else { return nil }
            return CoarseValue.allCases.firstIndex(of: coarse)
        }
    }
}
