import SkanCompiler
import SkanCore
import SkanSchema

/// `amount-between-units`: amounts are summed in whole minor units of their currency, so a bound between two
/// of them (`purchase.sum >= 9.995` in USD) means the next whole one (`>= 10`). Exact either way, but the text
/// says something the app cannot reach: the warning gives the bound it means, and where `written` says how the
/// amount is written, a fix-it that writes it.
extension SchemaLints {
    static func amountsBetweenUnits(_ schema: Schema, written: WrittenAmounts) -> [Diagnostic] {
        var found: [Diagnostic] = []
        var seen = Set<String>()
        func check(_ condition: Condition, at location: SourceLocation?) {
            for (event, op, number) in amountComparisons(in: condition) {
                guard let unit = schema.events[event].unitsPerWhole,
                    !MinorUnitSum.isWhole(number, unitsPerWhole: unit)
                else { continue }
                let name = schema.events[event].name
                let said = "'\(name).sum \(op.rawValue) \(ConditionNumber.text(number))' lies"
                guard seen.insert("\(location.map { "\($0)" } ?? "") \(said)").inserted else { continue }
                let meant = meaning(op, number, unit: unit)
                let site = location.flatMap { written.comparison(name, op, number, from: $0) }
                found.append(
                    .amountBetweenUnits(
                        said,
                        meaning: meant.map { "'\(name).sum \($0)'" }
                            ?? "a comparison that \(op == .notEqual ? "always" : "never") holds",
                        currency: schema.events[event].currency ?? "", unit: unit, at: location,
                        fix: site.flatMap { site in meant.map { (site.text, site.location, "\(name).sum \($0)") } }))
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
                    let location = schema.sites.field(index)
                    let site = location.flatMap { written.bucket(fieldCase.name, from: $0) }
                    found.append(
                        .amountBetweenUnits(
                            "bucket '\(fieldCase.name)' of '\(field.name)' (\(bucket)) has a bound",
                            meaning: "'\(meant)'",
                            currency: schema.events[event].currency ?? "", unit: unit, at: location,
                            fix: site.map { ($0.text, $0.location, upper == nil ? ConditionNumber.text(lower) : meant) }
                        ))
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

    /// What `SUM op number` means in whole units (`>= 10`), or nil when it never or always holds (`== 9.995`,
    /// `!= 9.995`): no bound says that.
    private static func meaning(_ op: ComparisonOperator, _ number: Double, unit: Double) -> String? {
        // Off the grid (the only bounds this lint reports), each comparison holds in at most one range.
        guard let range = op.wholeUnitRanges(number, unitsPerWhole: unit).first else { return nil }
        switch range {
        case (let min?, let max?) where min == max: return "== \(ConditionNumber.text(min))"
        case (let min?, nil): return ">= \(ConditionNumber.text(min))"
        case (nil, let max?): return "<= \(ConditionNumber.text(max))"
        default: return nil
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
    /// `fix`: the text written, where, and what to write instead.
    static func amountBetweenUnits(
        _ written: String, meaning: String, currency: String, unit: Double, at location: SourceLocation?,
        fix: (original: String, at: SourceLocation, replacement: String)?
    ) -> Diagnostic {
        .warning(
            .amountBetweenUnits,
            "\(written) between whole units of \(currency) (\(ConditionNumber.text(1 / unit))), and amounts are summed in whole units, so it means \(meaning); write that",
            at: location,
            fixIts: fix.map { [FixIt(replacing: $0.original, at: $0.at, with: $0.replacement)] } ?? [])
    }
}
