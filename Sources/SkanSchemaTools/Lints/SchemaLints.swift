public import SkanCompiler
public import SkanCore
public import SkanSchema

/// The lints of `skanc lint`: warnings from practice about schemas that check clean but lose information, each
/// located, with the fix (docs/LanguageReference.md, "Lints").
extension DiagnosticCode {
    /// Information only the fine value carries that changes only after hour 48, where no fine value is reported.
    public static let fineAfterWindowOne = DiagnosticCode("fine-after-window-one")
    /// A fine value that goes down as events and time go on: SKAdNetwork 3 keeps only increases.
    public static let nonMonotoneFine = DiagnosticCode("non-monotone-fine")
    /// A state more than another in every field with a lower coarse value.
    public static let coarseInconsistent = DiagnosticCode("coarse-inconsistent")
    /// A lock that holds at first launch.
    public static let lockAtStart = DiagnosticCode("lock-at-start")
    /// A lock that holds in a state that sends nothing, where no update carries it.
    public static let lockWithoutUpdate = DiagnosticCode("lock-without-update")
    /// A field no coarse rule of windows 2 and 3 reads.
    public static let coarseBlind = DiagnosticCode("coarse-blind")
    /// An amount bound between two whole minor units of its currency, which means the next whole one.
    public static let amountBetweenUnits = DiagnosticCode("amount-between-units")
    /// A revenue field with fewer ranges than Meta asks for.
    public static let tooFewRevenueRanges = DiagnosticCode("too-few-revenue-ranges")

    /// Every lint, in the order the language reference explains them.
    public static let lintCodes: [DiagnosticCode] = SchemaLints.Lint.allCases.map(\.code)
}

/// The lints of one schema.
public enum SchemaLints {
    /// A platform whose own rules add lints (`--for meta`).
    public enum Platform: String, CaseIterable, Sendable {
        case meta
    }

    /// One lint: a new one is a case here, and `findings` does not compile until it says what it finds.
    public enum Lint: String, CaseIterable, Sendable {
        case fineAfterWindowOne = "fine-after-window-one"
        case nonMonotoneFine = "non-monotone-fine"
        case coarseInconsistent = "coarse-inconsistent"
        case lockAtStart = "lock-at-start"
        case lockWithoutUpdate = "lock-without-update"
        case coarseBlind = "coarse-blind"
        case amountBetweenUnits = "amount-between-units"
        case tooFewRevenueRanges = "too-few-revenue-ranges"

        /// The code its warnings carry.
        public var code: DiagnosticCode { DiagnosticCode(rawValue) }

        /// What it finds, in a line of `skanc help lint`.
        public var summary: String {
            switch self {
            case .fineAfterWindowOne: "fine-value-only information changes after hour 48, past the first postback"
            case .nonMonotoneFine: "the fine value can go down (SKAdNetwork 3 and increase-only keep only increases)"
            case .coarseInconsistent: "a state at least another in every field gets a lower coarse value"
            case .lockAtStart: "a lock holds at its window's start with nothing logged"
            case .lockWithoutUpdate: "a lock holds in a state that sends nothing, so no update carries it"
            case .coarseBlind: "no coarse rule or lock of windows 2-3 reads a field"
            case .amountBetweenUnits: "an amount bound between two whole units of its currency (9.995 USD)"
            case .tooFewRevenueRanges: "a revenue field with fewer than four ranges"
            }
        }

        /// The platform whose rules add it; nil for the lints every schema gets.
        public var platform: Platform? { self == .tooFewRevenueRanges ? .meta : nil }

        /// What it finds in `schema`, whose amounts are written where `amounts` says.
        func findings(in schema: Schema, amounts: WrittenAmounts) -> [Diagnostic] {
            switch self {
            case .fineAfterWindowOne:
                let readLater = SchemaLints.fieldsReadAfterWindowOne(schema)
                return schema.fields.enumerated().compactMap { index, field in
                    guard let late = lateChange(field), !readLater.contains(index) else { return nil }
                    return .fineAfterWindowOne(field.name, late, at: schema.sites.field(index))
                }
            case .nonMonotoneFine:
                return FineValueDrop.find(in: schema).map { [.nonMonotoneFine($0, at: schema.sites.field($0.field))] }
                    ?? []
            case .coarseInconsistent:
                return coarseInconsistencies(schema)
            case .lockAtStart:
                return SchemaLints.lockAtStart(schema)
            case .lockWithoutUpdate:
                return SchemaLints.locksWithoutUpdate(schema)
            case .coarseBlind:
                let readLater = SchemaLints.fieldsReadAfterWindowOne(schema)
                return schema.fields.enumerated().compactMap { index, field in
                    readLater.contains(index) ? nil : .coarseBlind(field.name, at: schema.sites.field(index))
                }
            case .amountBetweenUnits:
                return SchemaLints.amountsBetweenUnits(schema, written: amounts)
            case .tooFewRevenueRanges:
                return schema.fields.enumerated().compactMap { index, field in
                    guard case .buckets(.amount) = field.kind, field.cases.count < 4 else { return nil }
                    return .tooFewRevenueRanges(field.name, field.cases.count, at: schema.sites.field(index))
                }
            }
        }
    }

    /// Every lint that `schema` raises, with `platform`'s when given; where `amounts` says how amounts are
    /// written (a compilation's), the lints that rewrite one carry the fix-it.
    public static func lint(_ schema: Schema, for platform: Platform? = nil, amounts: WrittenAmounts = .init())
        -> [Diagnostic]
    {
        Lint.allCases.filter { $0.platform == nil || $0.platform == platform }
            .flatMap { $0.findings(in: schema, amounts: amounts) }.sortedByLocation()
    }

    /// The fields a coarse rule or lock of window 2 or 3 reads.
    static func fieldsReadAfterWindowOne(_ schema: Schema) -> Set<Int> {
        Set(
            [ConversionWindow.second, .third].flatMap { window in
                schema.coarseRules(window: window).flatMap { $0.condition.fieldsRead }
                    + (schema.lockCondition(window: window)?.fieldsRead ?? [])
            })
    }

    /// What of a derived field changes only after hour 48: an `in window` count, a `within` past 48 hours, a
    /// time of 48 hours or more, days from 2 on.
    static func lateChange(_ field: Field) -> String? {
        switch field.derivation {
        case .buckets(let source)?, .count(let source)?:
            if source.measure == .days {
                // A count of days is its own code; buckets of days name their days.
                let reachesDayTwo: Bool
                if case .count? = field.derivation {
                    reachesDayTwo = field.bits.maximumCode >= 2
                } else {
                    reachesDayTwo = field.cases.contains { ($0.bucket?.lower ?? 0) >= 2 }
                }
                return reachesDayTwo ? "its days from day 2 on" : nil
            }
            switch source.scope {
            case .inWindow: return "its count in windows 2 and 3"
            case .within(let hours) where hours > 48:
                return "what is logged from hour 48 to hour \(ConditionNumber.text(hours))"
            default: return nil
            }
        case .flag(let condition)?:
            return latestHour(condition).map { "the time 'hours \($0)'" }
        case .firstMatch(let conditions)?:
            return conditions.compactMap(latestHour).first.map { "the time 'hours \($0)'" }
        case nil:
            return nil
        }
    }

    /// A time term that holds only from hour 48 on (`hours >= 48`, `hours > 60`).
    static func latestHour(_ condition: Condition) -> String? {
        switch condition {
        case .hours(.greaterOrEqual, let number) where number >= 48,
            .hours(.greater, let number) where number >= 48,
            .hours(.equal, let number) where number >= 48:
            return ">= \(ConditionNumber.text(number))"
        case .not(let inner): return latestHour(inner)
        case .all(let parts), .any(let parts): return parts.compactMap(latestHour).first
        default: return nil
        }
    }

    /// Pairs of states where one has every field's code at least the other's, one higher, and a lower coarse
    /// value (rules on fields alone); one per window.
    static func coarseInconsistencies(_ schema: Schema) -> [Diagnostic] {
        let states = (0...63).compactMap { try? schema.decode(fineValue: $0).get() }
        var found: [Diagnostic] = []
        for window in ConversionWindow.allCases {
            let rules = schema.coarseRules(window: window)
            guard !rules.contains(where: \.condition.readsActivity) else { continue }
            let coarse = states.map { state in rules.first { $0.condition.holds(for: state.codes) } }
            search: for (more, moreRule) in zip(states, coarse) {
                for (less, lessRule) in zip(states, coarse) where more != less {
                    // A `nothing` rule sends no coarse value to be out of order with.
                    guard let moreRule, let lessRule, let moreValue = moreRule.value, let lessValue = lessRule.value,
                        moreValue < lessValue
                    else { continue }
                    if zip(more.codes, less.codes).allSatisfy({ $0 >= $1 }) {
                        found.append(
                            .coarseInconsistent(
                                window: window, more: schema.fineValue(of: more), less: schema.fineValue(of: less),
                                moreValue: moreValue, lessValue: lessValue, at: moreRule.location))
                        break search
                    }
                }
            }
        }
        return found
    }

    /// Locks that hold, on fields alone, in a state whose first holding coarse rule is `nothing`: no update is sent
    /// there, so the lock never happens. The smallest such fine value, per window.
    static func locksWithoutUpdate(_ schema: Schema) -> [Diagnostic] {
        ConversionWindow.allCases.compactMap { window in
            guard let lock = schema.lockCondition(window: window) else { return nil }
            let silent = schema.validStates.first { state in
                lock.decided(for: state.codes) == true
                    && schema.matchingCoarseRule(for: state, window: window).map { $0.value == nil } == true
            }
            return silent.map {
                .lockWithoutUpdate(window: window, fineValue: schema.fineValue(of: $0), at: schema.sites.locks[window])
            }
        }
    }

    /// Locks that hold at their window's start with nothing logged (window 1: at first launch).
    static func lockAtStart(_ schema: Schema) -> [Diagnostic] {
        ConversionWindow.allCases.compactMap { window in
            guard let lock = schema.lockCondition(window: window) else { return nil }
            let hour = Double(window.hours.lowerBound)
            let state = schema.evaluate(Activity(), at: hour).state
            guard lock.holds(for: state.codes, facts: StartFacts(hours: hour)) else { return nil }
            return .lockAtStart(window: window, at: schema.sites.locks[window])
        }
    }
}

/// Nothing logged, at an hour.
private struct StartFacts: ActivityFacts {
    let hours: Double
    func count(of event: Int) -> Double { 0 }
    func sum(of event: Int) -> Double { 0 }
}
