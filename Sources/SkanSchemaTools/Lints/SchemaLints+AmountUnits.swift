import SkanCompiler
import SkanCore
import SkanSchema

/// `amount-between-units`: amounts are summed in whole minor units of their currency, so a bound between two
/// of them (`purchase.sum >= 9.995` in USD) means the next whole one (`>= 10`). Exact either way, but the text
/// says something the app cannot reach: the warning gives the bound it means.
extension SchemaLints {
    static func amountsBetweenUnits(_ schema: Schema) -> [Diagnostic] {
        var found: [Diagnostic] = []
        var seen = Set<String>()
        func check(_ condition: Condition, at location: SourceLocation?) {
            for (event, op, number) in amountComparisons(in: condition) {
                guard let unit = schema.events[event].unitsPerWhole,
                    !MinorUnitSum.isWhole(number, unitsPerWhole: unit)
                else { continue }
                let written = "'\(schema.events[event].name).sum \(op.rawValue) \(ConditionNumber.text(number))' lies"
                guard seen.insert("\(location.map { "\($0)" } ?? "") \(written)").inserted else { continue }
                found.append(
                    .amountBetweenUnits(
                        written, meaning: meaning(op, number, unit: unit, event: schema.events[event].name),
                        currency: schema.events[event].currency ?? "", unit: unit, at: location))
            }
        }
        for (index, field) in schema.fields.enumerated() {
            switch field.derivation {
            case .flag(let condition)?: check(condition, at: schema.sites.field(index))
            case .firstMatch(let conditions)?:
                for condition in conditions { check(condition, at: schema.sites.field(index)) }
            case .buckets(let source)? where source.measure == .amount:
                guard let event = source.events.first, let unit = schema.events[event].unitsPerWhole else { continue }
                for fieldCase in field.cases {
                    guard let bucket = fieldCase.bucket else { continue }
                    let bounds = [bucket.lower] + (bucket.upper.map { [$0] } ?? [])
                    guard bounds.contains(where: { !MinorUnitSum.isWhole($0, unitsPerWhole: unit) }) else { continue }
                    // `a..<b` holds from ⌈a⌉ up to below ⌈b⌉, `a...b` up to ⌊b⌋, in whole units.
                    let lower = MinorUnitSum.wholeAtOrAbove(bucket.lower, unitsPerWhole: unit)
                    let upper = bucket.upper.map {
                        bucket.isHalfOpen
                            ? MinorUnitSum.wholeAtOrAbove($0, unitsPerWhole: unit)
                            : MinorUnitSum.wholeAtOrBelow($0, unitsPerWhole: unit)
                    }
                    let meant =
                        ConditionNumber.text(lower) + (bucket.isHalfOpen ? "..<" : "...")
                        + (upper.map(ConditionNumber.text) ?? "")
                    found.append(
                        .amountBetweenUnits(
                            "bucket '\(fieldCase.name)' of '\(field.name)' (\(bucket)) has a bound",
                            meaning: "'\(meant)'",
                            currency: schema.events[event].currency ?? "", unit: unit, at: schema.sites.field(index)))
                }
            default: break
            }
        }
        for window in ConversionWindow.allCases {
            for rule in schema.coarseRules(window: window) { check(rule.condition, at: rule.location) }
            if let lock = schema.lockCondition(window: window) { check(lock, at: schema.sites.locks[window]) }
        }
        return found
    }

    /// What `EVENT.sum op number` means in whole units: the inclusive bound, or that it never or always holds.
    private static func meaning(_ op: ComparisonOperator, _ number: Double, unit: Double, event: String) -> String {
        // Off the grid (the only bounds this lint reports), each comparison holds in at most one range.
        guard let range = op.wholeUnitRanges(number, unitsPerWhole: unit).first else {
            return "a comparison that never holds"
        }
        switch range {
        case (let min?, let max?) where min == max: return "'\(event).sum == \(ConditionNumber.text(min))'"
        case (let min?, nil): return "'\(event).sum >= \(ConditionNumber.text(min))'"
        case (nil, let max?): return "'\(event).sum <= \(ConditionNumber.text(max))'"
        default: return "a comparison that always holds"
        }
    }

    /// Every `EVENT.sum op X` in `condition`, in the order written.
    private static func amountComparisons(in condition: Condition) -> [(Int, ComparisonOperator, Double)] {
        switch condition {
        case .eventMeasure(let event, .sum, let op, let number): [(event, op, number)]
        case .not(let inner): amountComparisons(in: inner)
        case .all(let parts), .any(let parts): parts.flatMap(amountComparisons)
        default: []
        }
    }
}

extension Diagnostic {
    static func amountBetweenUnits(
        _ written: String, meaning: String, currency: String, unit: Double, at location: SourceLocation?
    ) -> Diagnostic {
        .warning(
            .amountBetweenUnits,
            "\(written) between whole units of \(currency) (\(ConditionNumber.text(1 / unit))), and amounts are summed in whole units, so it means \(meaning); write that",
            at: location)
    }
}
