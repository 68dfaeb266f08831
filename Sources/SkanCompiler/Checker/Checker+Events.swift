import SkanCore
import SkanSchema

/// Events, derived flags and fields, sources and time: the checks of the language's events and time.
extension Checker {
    /// The last hour any conversion window covers.
    static let lastWindowHour = Double(ConversionWindow.third.hours.upperBound)

    mutating func declareEvent(_ event: EventSyntax) {
        checkNotAnOperator(event.name, kind: "event")
        if let earlier = eventNames[event.name.text] {
            report(.eventDeclaredTwice(event.name.text, at: event.name.location, first: earlier.location))
            return
        }
        if let field = allFieldNames[event.name.text] {
            report(.eventNamedLikeField(event.name.text, at: event.name.location, field: field))
        }
        if let currency = event.currency {
            if !Self.isCurrencyCode(currency.text) {
                report(.notACurrency(currency.text, at: currency.location))
            } else if !CurrencyMinorUnits.isListed(currency.text.uppercased()) {
                let suggestion = NameSuggestion.closest(
                    to: currency.text.uppercased(), among: CurrencyMinorUnits.listedCodes)
                report(.unlistedCurrency(currency.text, suggestion: suggestion, at: currency.location))
            }
        }
        eventNames[event.name.text] = Declared(index: events.count, location: event.name.location)
        events.append(Event(name: event.name.text, currency: event.currency?.text.uppercased()))
        eventNameLocations.append(event.name.location)
    }

    /// ISO 4217 codes are three letters.
    static func isCurrencyCode(_ text: String) -> Bool {
        text.utf8.count == 3 && text.utf8.allSatisfy { (65...90).contains($0) || (97...122).contains($0) }
    }

    /// The event called `name`, or nil with an `unknown-name` error naming the closest event.
    mutating func lookUpEvent(_ name: Identifier) -> Int? {
        if let declared = eventNames[name.text] { return declared.index }
        let suggestion = NameSuggestion.closest(to: name.text, among: eventNames.keys.sorted())
        conditionsResolved = false
        report(.noSuchEvent(name.text, suggestion: suggestion, at: name.location))
        return nil
    }

    /// A derived field's source: its events known, amounts of one currency from value events only, a reachable
    /// `within`.
    mutating func resolveSource(_ source: SourceSyntax, field: String) -> ActivitySource? {
        var indices: [Int] = []
        var ok = true
        for name in source.events {
            guard let index = lookUpEvent(name) else {
                ok = false
                continue
            }
            if source.measure == .amount, !events[index].hasValue {
                report(.amountOfCountedEvent(name.text, field: field, at: name.location))
                ok = false
            }
            indices.append(index)
        }
        if source.measure == .amount {
            let currencies = Set(indices.compactMap { events[$0].currency })
            if currencies.count > 1 {
                report(.mixedCurrencies(field: field, currencies: currencies.sorted(), at: source.location))
                ok = false
            }
        }
        let scope: ActivitySource.Scope
        switch source.scope {
        case .sinceFirstLaunch: scope = .sinceFirstLaunch
        case .inWindow: scope = .inWindow
        case .within(let hours):
            if hours.value > Self.lastWindowHour {
                report(.withinUnreachable(hours, field: field))
            }
            scope = .within(hours: hours.value)
        }
        guard ok else {
            conditionsResolved = false
            return nil
        }
        let measure: ActivitySource.Measure =
            switch source.measure {
            case .amount: .amount
            case .count: .count
            case .days: .days
            }
        return ActivitySource(measure: measure, events: indices, scope: scope)
    }

    /// The derivation of a field whose cases carry `when`/`otherwise`: every case has one, the last is `otherwise`.
    mutating func resolveFirstMatch(_ field: FieldSyntax) -> FieldDerivation? {
        let derived = field.cases.filter { $0.derivation != nil }
        guard !derived.isEmpty else { return nil }
        if let bare = field.cases.first(where: { $0.derivation == nil }) {
            report(.caseWithoutWhen(bare.name.text, field: field.name.text, at: bare.name.location))
            return nil
        }
        if let early = field.cases.dropLast().first(where: { $0.derivation?.condition == nil }) {
            report(.otherwiseNotLast(early.name.text, field: field.name.text, at: early.derivation!.location))
            return nil
        }
        if let last = field.cases.last, last.derivation?.condition != nil {
            report(.derivedWithoutOtherwise(field.name.text, last: last.name.text, at: last.name.location))
            return nil
        }
        var conditions: [Condition] = []
        for caseSyntax in field.cases {
            guard let condition = caseSyntax.derivation?.condition else {
                conditions.append(.always)
                continue
            }
            guard let resolved = resolveDerivedCondition(condition, of: field.name.text) else { return nil }
            conditions.append(resolved)
        }
        return .firstMatch(conditions)
    }

    /// A derived flag's or case's condition: it may read events, time and the flags and fields declared before it.
    mutating func resolveDerivedCondition(_ syntax: ConditionSyntax, of owner: String) -> Condition? {
        for name in syntax.names where declared[name.text] == nil && eventNames[name.text] == nil {
            if let later = allFieldNames[name.text] {
                conditionsResolved = false
                report(.readsLaterField(name.text, owner: owner, at: name.location, declared: later))
                return nil
            }
        }
        return resolveCondition(syntax)
    }

    /// A lock's trigger: a condition, or `after N hours`, which is `hours >= N` in a window that reaches hour N.
    mutating func resolveLockTrigger(_ lock: LockSyntax, windows: [ConversionWindow]) -> Condition? {
        switch lock.trigger {
        case .condition(let condition):
            return resolveCondition(condition)
        case .after(let hours):
            for window in windows where hours.value >= Double(window.hours.upperBound) {
                report(.lockAfterUnreachable(hours, window: window))
            }
            return .hours(.greaterOrEqual, hours.value)
        }
    }

    /// `count of` fields: a warning when the count saturates below what the windows reach.
    mutating func checkSaturation(_ field: Field, source: ActivitySource, at location: SourceLocation) {
        guard source.measure == .days else { return }
        let lastDay = Int(Self.lastWindowHour / 24) - 1
        if field.bits.maximumCode < lastDay {
            report(.countSaturates(field.name, maximum: field.bits.maximumCode, reach: lastDay, at: location))
        }
    }
}

extension Checker {
    /// `unreachable-time` for a coarse rule of a window that reads a time its window never has: `hours >= 100` in
    /// window 1 (hours 0 to 48), or a `count of days` field compared with a day outside the window (`day >= n3` in
    /// window 1, days 0 and 1). Terms under `not` are left alone.
    mutating func checkTimeReach(of schema: Schema, blocks: PerWindow<ResolvedBlock?>) {
        var reported = Set<String>()
        for window in ConversionWindow.allCases {
            guard let block = blocks[window] else { continue }
            for rule in block.rules {
                // A term no window reaches has its own warning where it is resolved ('holds at no update').
                for atom in rule.condition.positiveTimeTerms
                where !schema.canHold(atom, in: window)
                    && ConversionWindow.allCases.contains(where: { schema.canHold(atom, in: $0) })
                {
                    let text = schema.text(of: atom)
                    guard reported.insert("\(rule.location.offset) \(text)").inserted else { continue }
                    report(.timeOutsideWindow(text, window: window, at: rule.location))
                }
            }
        }
    }
}

extension Condition {
    /// The `hours` terms and comparisons of fields, outside any `not`.
    var positiveTimeTerms: [Condition] {
        switch self {
        case .hours, .comparison: [self]
        case .always, .flag, .event, .eventMeasure, .not: []
        case .all(let parts), .any(let parts): parts.flatMap(\.positiveTimeTerms)
        }
    }
}

extension Schema {
    /// Whether `term` (an `hours` comparison, or a comparison of a field counting days) can hold in `window`.
    /// Other terms can, as far as time tells.
    func canHold(_ term: Condition, in window: ConversionWindow) -> Bool {
        let (lower, upper) = (Double(window.hours.lowerBound), Double(window.hours.upperBound))
        switch term {
        case .hours(let op, let number):
            switch op {
            case .greater, .greaterOrEqual: return number < upper
            case .less: return number > lower
            case .lessOrEqual: return number >= lower
            case .equal: return number >= lower && number < upper
            case .notEqual: return true
            }
        case .comparison(let index, let op, let code):
            let field = fields[index]
            let days: ActivitySource?
            switch field.derivation {
            case .count(let source)? where source.measure == .days: days = source
            case .buckets(let source)? where source.measure == .days: days = source
            default: days = nil
            }
            guard days != nil else { return true }
            let dayRange = window.hours.lowerBound / 24...(window.hours.upperBound - 1) / 24
            let codes = Set(
                dayRange.compactMap { day in
                    (field.bucketCase(for: Double(day)) ?? field.nearestBucketCase(for: Double(day)))?.code
                })
            return codes.contains { op.holds($0, code) }
        default:
            return true
        }
    }
}

extension ConditionSyntax {
    /// The bare names and compared names it reads (fields, flags or events).
    var names: [Identifier] {
        switch self {
        case .name(let name), .comparison(let name, _, _), .eventMeasure(let name, _, _, _): [name]
        case .hours: []
        case .not(_, let inner), .parenthesized(let inner): inner.names
        case .all(let parts), .any(let parts): parts.flatMap(\.names)
        }
    }
}

extension Diagnostic {
    fileprivate static func eventDeclaredTwice(_ name: String, at location: SourceLocation, first: SourceLocation)
        -> Diagnostic
    {
        .error(
            .duplicate, "event '\(name)' is declared twice; remove one", at: location,
            notes: [.init("the first is here", at: first)])
    }

    fileprivate static func eventNamedLikeField(_ name: String, at location: SourceLocation, field: SourceLocation)
        -> Diagnostic
    {
        .error(
            .duplicate,
            "event '\(name)' has the name of a flag or field; a condition could not tell them apart: rename one",
            at: location, notes: [.init("the flag or field is here", at: field)])
    }

    fileprivate static func notACurrency(_ text: String, at location: SourceLocation) -> Diagnostic {
        .error(
            .syntax, "'\(text)' is no currency code; write the ISO 4217 code, three letters such as USD or EUR",
            at: location)
    }

    fileprivate static func unlistedCurrency(_ text: String, suggestion: String?, at location: SourceLocation)
        -> Diagnostic
    {
        .warning(
            .currency,
            "'\(text)' is no currency ISO 4217 lists, so its amounts are summed as logged, not in whole minor units"
                + (suggestion.map { "; did you mean '\($0)'?" } ?? "; write the ISO 4217 code of the app's amounts"),
            at: location, fixIts: nameFixIts(text, suggestion, at: location))
    }

    fileprivate static func noSuchEvent(_ name: String, suggestion: String?, at location: SourceLocation) -> Diagnostic
    {
        .error(
            .unknownName,
            "no event named '\(name)'"
                + (suggestion.map { "; did you mean '\($0)'?" } ?? "; declare it with 'event \(name)'"),
            at: location, fixIts: nameFixIts(name, suggestion, at: location))
    }

    fileprivate static func amountOfCountedEvent(_ name: String, field: String, at location: SourceLocation)
        -> Diagnostic
    {
        .error(
            .eventValue,
            "'\(field)' sums the amounts of '\(name)', which is logged without a value; declare it 'event \(name) value USD', or count it with 'buckets count of'",
            at: location)
    }

    fileprivate static func mixedCurrencies(field: String, currencies: [String], at location: SourceLocation)
        -> Diagnostic
    {
        .error(
            .eventValue,
            "'\(field)' sums amounts in \(listed(currencies)); a sum takes one currency: convert in the app and log one, or split the field",
            at: location)
    }

    fileprivate static func withinUnreachable(_ hours: NumberLiteral, field: String) -> Diagnostic {
        .warning(
            .unreachableTime,
            "'\(field)' counts within \(hours.text) hours, but the last window ends at hour \(Int(Checker.lastWindowHour)): no update sees events after that; write 'within \(Int(Checker.lastWindowHour)) hours' or less",
            at: hours.location)
    }

    fileprivate static func caseWithoutWhen(_ name: String, field: String, at location: SourceLocation) -> Diagnostic {
        .error(
            .derivation,
            "case '\(name)' of '\(field)' has no 'when': in a derived field every case says when it holds, and the last says 'otherwise'",
            at: location)
    }

    fileprivate static func derivedWithoutOtherwise(_ field: String, last: String, at location: SourceLocation)
        -> Diagnostic
    {
        .error(
            .derivation,
            "derived field '\(field)' ends with a 'when' case ('\(last)'); end it with a case that holds 'otherwise', so every activity has a case",
            at: location)
    }

    fileprivate static func otherwiseNotLast(_ name: String, field: String, at location: SourceLocation) -> Diagnostic {
        .error(
            .derivation,
            "case '\(name)' of '\(field)' holds 'otherwise', so the cases after it are never chosen; move it last",
            at: location)
    }

    fileprivate static func readsLaterField(
        _ name: String, owner: String, at location: SourceLocation, declared: SourceLocation
    ) -> Diagnostic {
        let what =
            name == owner
            ? "'\(owner)' is derived from itself" : "'\(owner)' is derived from '\(name)', which is declared after it"
        return .error(
            .derivation,
            "\(what); a derived condition reads events, time and the flags and fields declared before it: move '\(name)' above, or derive it from events",
            at: location, notes: [.init("'\(name)' is declared here", at: declared)])
    }

    fileprivate static func lockAfterUnreachable(_ hours: NumberLiteral, window: ConversionWindow) -> Diagnostic {
        .error(
            .unreachableTime,
            "window \(window) ends at hour \(window.hours.upperBound): a lock after \(hours.text) hours never happens in it; lock at an hour below \(window.hours.upperBound), or lock a later window",
            at: hours.location)
    }

    fileprivate static func timeOutsideWindow(_ text: String, window: ConversionWindow, at location: SourceLocation)
        -> Diagnostic
    {
        .warning(
            .unreachableTime,
            "'\(text)' never holds in window \(window), which covers hours \(window.hours.lowerBound) to \(window.hours.upperBound) (days \(window.hours.lowerBound / 24) to \((window.hours.upperBound - 1) / 24)); move the rule to the window where it can, or change the time",
            at: location)
    }

    fileprivate static func countSaturates(_ field: String, maximum: Int, reach: Int, at location: SourceLocation)
        -> Diagnostic
    {
        .warning(
            .countSaturates,
            "'\(field)' counts days up to \(reach), but its bits hold at most \(maximum): from day \(maximum) on it stays \(maximum); widen the field or bucket the days ('buckets count of days')",
            at: location)
    }
}
