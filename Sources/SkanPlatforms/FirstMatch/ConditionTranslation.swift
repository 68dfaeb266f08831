import SkanCore
import SkanSchema

/// A condition written as event bounds: a list of conjunctions, any of which holds (disjunctive normal form),
/// for one state of the fields it may read. Negations are pushed down to the comparisons (`not purchase` is
/// `purchase.count <= 0`). What bounds cannot say is recorded as a loss and approximated: a strict amount
/// bound as the inclusive one, a time term as always true.
struct ConditionTranslation {
    let schema: Schema
    /// The code of each field fixed by the entry being built; nil for fields it does not fix.
    let codes: [Int?]
    /// Where the condition is written, for the losses.
    let location: SourceLocation?
    /// The export's budget, spent on every conjunction built.
    let work: ExportWork
    /// Whether the platform bounds the hours since first launch (Google Ads' time post install); GA4 does not.
    var allowsTime = false
    var losses: [ExportLoss.Kind] = []
    /// Strict bounds made (`E.sum > X`, `not (E.sum >= X)`, `hours < X`): a loss only where an entry keeps one.
    var strictTerms: [ExportLoss.Kind] = []

    /// At most this many conjunctions for one condition: beyond, the schema is refused as too large.
    static let maximumTerms = 1_024

    mutating func terms(of condition: Condition, negated: Bool = false) -> [EventConjunction] {
        guard !work.isExhausted else { return [] }
        switch condition {
        case .always:
            return negated ? [] : [.always]
        case .flag, .comparison:
            let known = codes.map { $0 ?? 0 }
            let holds = condition.decided(for: known) ?? false
            return holds != negated ? [.always] : []
        case .event(let event):
            return [
                EventConjunction([negated ? EventBounds(event: event, maxCount: 0) : .init(event: event, minCount: 1)])
            ]
            .compactMap { $0 }
        case .eventMeasure(let event, let measure, let op, let number):
            let op = negated ? op.complement : op
            return bounds(event: event, measure: measure, op, number)
        case .hours(let op, let number):
            let op = negated ? op.complement : op
            guard allowsTime else {
                // GA4's event bounds have no clock.
                losses.append(.time("hours \(op.rawValue) \(ConditionNumber.text(number))"))
                return [.always]
            }
            return hourBounds(op, number)
        case .not(let inner):
            return terms(of: inner, negated: !negated)
        case .all(let parts):
            return negated ? union(parts, negated: true) : product(parts, negated: false)
        case .any(let parts):
            return negated ? product(parts, negated: true) : union(parts, negated: false)
        }
    }

    private mutating func union(_ parts: [Condition], negated: Bool) -> [EventConjunction] {
        var result: [EventConjunction] = []
        for part in parts {
            result += terms(of: part, negated: negated)
            guard work.spend() else {
                losses.append(.tooMuchWork(limit: work.limit))
                return []
            }
            if result.count > Self.maximumTerms {
                losses.append(.tooManyAlternatives(limit: Self.maximumTerms))
                return Array(result.prefix(Self.maximumTerms))
            }
        }
        return result
    }

    mutating func product(_ parts: [Condition], negated: Bool) -> [EventConjunction] {
        var result: [EventConjunction] = [.always]
        for part in parts {
            let next = terms(of: part, negated: negated)
            result = Self.cross(result, next, work: work, losses: &losses)
            if result.isEmpty { break }
        }
        return result
    }

    /// Every conjunction of one of `left` and one of `right` that can hold, at most `maximumTerms` of them: more
    /// is a loss (refused; cut with --allow-lossy), so that no schema makes an export slow. Each pair tried is
    /// spent from `work`; once it is spent, nothing more is built.
    static func cross(
        _ left: [EventConjunction], _ right: [EventConjunction], work: ExportWork, losses: inout [ExportLoss.Kind]
    ) -> [EventConjunction] {
        var result: [EventConjunction] = []
        guard !work.isExhausted else { return [] }
        for one in left {
            for two in right {
                guard work.spend() else {
                    losses.append(.tooMuchWork(limit: work.limit))
                    return []
                }
                guard let both = one.and(two) else { continue }
                guard result.count < maximumTerms else {
                    losses.append(.tooManyAlternatives(limit: maximumTerms))
                    return result
                }
                result.append(both)
            }
        }
        return result
    }

    private mutating func strict(_ written: String, _ inclusive: String) {
        strictTerms.append(.strictAmount(written, inclusive: inclusive))
    }

    private func name(_ event: Int) -> String {
        schema.events.indices.contains(event) ? schema.events[event].name : "?"
    }

    /// `number` moved by `cents` hundredths: the inclusive bound for amounts in cents.
    private func cents(_ number: Double, _ cents: Double) -> String {
        ConditionNumber.text((number * 100 + cents).rounded() / 100)
    }

    /// `hours OP X` as hour bounds, strict where the operator is.
    private mutating func hourBounds(_ op: ComparisonOperator, _ number: Double) -> [EventConjunction] {
        let made: [EventConjunction?]
        switch op {
        case .greaterOrEqual: made = [EventConjunction(minHours: number, maxHours: nil)]
        case .greater:
            strict("hours > \(ConditionNumber.text(number))", "hours >= \(ConditionNumber.text(number))")
            made = [EventConjunction(minHours: number, maxHours: nil, minStrict: true)]
        case .lessOrEqual: made = [EventConjunction(minHours: nil, maxHours: number)]
        case .less:
            strict("hours < \(ConditionNumber.text(number))", "hours <= \(ConditionNumber.text(number))")
            made = [EventConjunction(minHours: nil, maxHours: number, maxStrict: true)]
        case .equal: made = [EventConjunction(minHours: number, maxHours: number)]
        case .notEqual:
            strict("hours != \(ConditionNumber.text(number))", "a bound with '>=' or '<='")
            made = [
                EventConjunction(minHours: nil, maxHours: number, maxStrict: true),
                EventConjunction(minHours: number, maxHours: nil, minStrict: true),
            ]
        }
        return made.compactMap { $0 }
    }

    private mutating func bounds(
        event: Int, measure: Condition.EventMeasure, _ op: ComparisonOperator, _ number: Double
    )
        -> [EventConjunction]
    {
        let made: [EventBounds]
        switch (measure, op) {
        case (.count, .greaterOrEqual): made = [EventBounds(event: event, minCount: Int(number.rounded(.up)))]
        case (.count, .greater): made = [EventBounds(event: event, minCount: Int(number.rounded(.down)) + 1)]
        case (.count, .lessOrEqual): made = [EventBounds(event: event, maxCount: Int(number.rounded(.down)))]
        case (.count, .less): made = [EventBounds(event: event, maxCount: Int(number.rounded(.up)) - 1)]
        case (.count, .equal):
            made =
                number == number.rounded()
                ? [EventBounds(event: event, minCount: Int(number), maxCount: Int(number))] : []
        case (.count, .notEqual):
            guard number == number.rounded() else { return [.always] }
            made = [
                EventBounds(event: event, maxCount: Int(number) - 1),
                EventBounds(event: event, minCount: Int(number) + 1),
            ]
        case (.sum, _) where schema.events[event].unitsPerWhole != nil:
            // Sums in whole minor units: every bound inclusive, on the currency's grid.
            made = op.wholeUnitRanges(number, unitsPerWhole: schema.events[event].unitsPerWhole!).map {
                EventBounds(event: event, minValue: $0.min, maxValue: $0.max)
            }
        case (.sum, .greaterOrEqual): made = [EventBounds(event: event, minValue: number)]
        case (.sum, .lessOrEqual): made = [EventBounds(event: event, maxValue: number)]
        case (.sum, .equal): made = [EventBounds(event: event, minValue: number, maxValue: number)]
        case (.sum, .greater):
            strict("\(name(event)).sum > \(ConditionNumber.text(number))", "\(name(event)).sum >= \(cents(number, 1))")
            var bound = EventBounds(event: event, minValue: number)
            bound.minValueStrict = true
            made = [bound]
        case (.sum, .less):
            strict("\(name(event)).sum < \(ConditionNumber.text(number))", "\(name(event)).sum <= \(cents(number, -1))")
            var bound = EventBounds(event: event, maxValue: number)
            bound.maxValueStrict = true
            made = [bound]
        case (.sum, .notEqual):
            strict("\(name(event)).sum != \(ConditionNumber.text(number))", "a bound with '>=' or '<='")
            var below = EventBounds(event: event, maxValue: number)
            below.maxValueStrict = true
            var above = EventBounds(event: event, minValue: number)
            above.minValueStrict = true
            made = [below, above]
        }
        // Each bound alone (a `!=` gives two alternatives); a bound no count meets gives nothing.
        return made.compactMap { EventConjunction([$0]) }
    }
}

extension ComparisonOperator {
    /// The operator that holds exactly when this one does not.
    var complement: ComparisonOperator {
        switch self {
        case .equal: .notEqual
        case .notEqual: .equal
        case .less: .greaterOrEqual
        case .lessOrEqual: .greater
        case .greater: .lessOrEqual
        case .greaterOrEqual: .less
        }
    }
}
