import SkanCore
import SkanSchema

extension Checker {
    /// A condition names at most this many flags, comparisons, events and hours: more than a GA4 schema's
    /// longest rule (128 entries of three event mappings with four bounds each, 1,536), so that every
    /// configuration GA4 accepts can be written. Long conditions are generated as statements
    /// (`ConditionHelpers`), which Swift type-checks in time that grows with their length.
    package static let maximumConditionTerms = 2_048

    /// A whole condition of a coarse rule or lock: bounded in size, then resolved.
    mutating func resolveCondition(_ syntax: ConditionSyntax) -> Condition? {
        let terms = syntax.termCount
        guard terms <= Self.maximumConditionTerms else {
            return failed(.conditionTooLong(terms: terms, at: syntax.firstLocation))
        }
        return resolve(syntax)
    }

    /// Resolves names to field indices and case codes; reports `unknown-name` and `type` errors.
    /// Returns nil when any part could not be resolved.
    mutating func resolve(_ syntax: ConditionSyntax) -> Condition? {
        switch syntax {
        case .parenthesized(let inner):
            return resolve(inner)
        case .name(let name):
            if declared[name.text] == nil, let event = eventNames[name.text] { return .event(event.index) }
            guard let field = lookUp(name) else { return nil }
            guard fields[field].isFlag else {
                let example = fields[field].cases.first.map { "'\(name.text) != \($0.name)'" } ?? "a comparison"
                return failed(.fieldUsedAsFlag(name.text, example: example, at: name.location))
            }
            return .flag(field: field)
        case .comparison(let name, let op, let caseName):
            guard let field = lookUp(name) else { return nil }
            guard !fields[field].isFlag else {
                return failed(.flagComparedWithCase(name.text, at: name.location))
            }
            guard let fieldCase = fields[field].caseNamed(caseName.text) else {
                let suggestion = NameSuggestion.closest(to: caseName.text, among: fields[field].cases.map(\.name))
                return failed(
                    .noSuchCase(
                        caseName.text, field: name.text, suggestion: suggestion, at: caseName.location,
                        notes: caseList(of: fields[field], at: fieldNameLocations[field])))
            }
            checkCaseOrder(fields[field], op, fieldCase, comparedAt: caseName.location)
            return .comparison(field: field, op, code: fieldCase.code)
        case .eventMeasure(let name, let member, let op, let number):
            guard let event = lookUpEvent(name) else { return nil }
            guard let measure = Condition.EventMeasure(rawValue: member.text) else {
                return failed(.unknownMember(member.text, event: name.text, at: member.location))
            }
            if measure == .sum, !events[event].hasValue {
                return failed(.sumOfCountedEvent(name.text, at: member.location))
            }
            return .eventMeasure(event: event, measure, op, number.value)
        case .hours(_, let op, let number):
            if number.value > Checker.lastWindowHour, op == .greater || op == .greaterOrEqual || op == .equal {
                report(.hoursUnreachable(number, op))
            }
            return .hours(op, number.value)
        case .not(_, let inner):
            return resolve(inner).map { .not($0) }
        case .all(let parts):
            let resolved = parts.map { resolve($0) }
            return resolved.contains { $0 == nil } ? nil : .all(resolved.map { $0! })
        case .any(let parts):
            let resolved = parts.map { resolve($0) }
            return resolved.contains { $0 == nil } ? nil : .any(resolved.map { $0! })
        }
    }

    private mutating func lookUp(_ name: Identifier) -> Int? {
        if let declared = declared[name.text] { return declared.index }
        // A real schema has at most six flags and fields; a huge broken one gets no suggestions rather than
        // a comparison of every unknown name with every declared one.
        let candidates = Array(declared.keys) + Array(eventNames.keys)
        let suggestion =
            candidates.count <= NameSuggestion.maximumCandidates
            ? NameSuggestion.closest(to: name.text, among: candidates.sorted()) : nil
        return failed(.noSuchName(name.text, suggestion: suggestion, withEvents: !events.isEmpty, at: name.location))
    }

    private mutating func failed<T>(_ diagnostic: Diagnostic) -> T? {
        conditionsResolved = false
        report(diagnostic)
        return nil
    }

    /// `case-order`: an ordering comparison (`event >= firstPurchase`) on a field that is not buckets compares
    /// codes; when the cases are not written in code order it holds for other cases than those written after
    /// (or before) the one named. Buckets have `bucket-order` instead.
    private mutating func checkCaseOrder(
        _ field: Field, _ op: ComparisonOperator, _ named: FieldCase, comparedAt location: SourceLocation
    ) {
        // A derived field's cases are written in the order they are tried, not in value order.
        guard op != .equal, op != .notEqual, field.cases.allSatisfy({ $0.bucket == nil }), field.derivation == nil
        else { return }
        guard let position = field.cases.firstIndex(where: { $0.name == named.name }) else { return }
        let differing = field.cases.enumerated().filter { index, fieldCase in
            op.holds(fieldCase.code, named.code) != op.holds(index, position)
        }.map(\.element)
        guard !differing.isEmpty else { return }
        report(.caseOrder(field: field, op: op, named: named, differing: differing, at: location))
    }

    /// Where the field is declared, with its cases; a field none of whose cases could be read says so instead of
    /// listing nothing.
    private func caseList(of field: Field, at location: SourceLocation) -> [Diagnostic.Note] {
        guard !field.cases.isEmpty else {
            return [.init("no case of '\(field.name)' could be read; fix the errors in its cases first", at: location)]
        }
        return [.init("the cases of '\(field.name)' are " + listed(field.cases.map { "'\($0.name)'" }), at: location)]
    }
}

extension Diagnostic {
    /// An ordering comparison whose meaning by codes differs from the order the cases are written in.
    static func caseOrder(
        field: Field, op: ComparisonOperator, named: FieldCase, differing: [FieldCase], at location: SourceLocation
    ) -> Diagnostic {
        let comparison = "'\(field.name) \(op.rawValue) \(named.name)'"
        let holding = differing.filter { op.holds($0.code, named.code) }.map { "'\($0.name)' (code \($0.code))" }
        let missing = differing.filter { !op.holds($0.code, named.code) }.map { "'\($0.name)' (code \($0.code))" }
        var parts: [String] = []
        if !holding.isEmpty { parts.append("holds for \(listed(holding))") }
        if !missing.isEmpty { parts.append("does not hold for \(listed(missing))") }
        return .warning(
            .caseOrder,
            "\(comparison) compares codes, not the order the cases of '\(field.name)' are written in: it \(parts.joined(separator: " and ")); write the cases in code order, or compare with '=='",
            at: location)
    }
}

extension ConditionSyntax {
    /// The flags and comparisons it names.
    var termCount: Int {
        switch self {
        case .name, .comparison, .eventMeasure, .hours: 1
        case .not(_, let inner), .parenthesized(let inner): inner.termCount
        case .all(let parts), .any(let parts): parts.reduce(0) { $0 + $1.termCount }
        }
    }

    /// Where it starts.
    var firstLocation: SourceLocation {
        switch self {
        case .name(let name), .comparison(let name, _, _), .eventMeasure(let name, _, _, _): name.location
        case .not(let location, _), .hours(let location, _, _): location
        case .parenthesized(let inner): inner.firstLocation
        case .all(let parts), .any(let parts): parts[0].firstLocation
        }
    }
}

extension Diagnostic {
    fileprivate static func fieldUsedAsFlag(_ name: String, example: String, at location: SourceLocation) -> Diagnostic
    {
        .error(
            .type, "'\(name)' is a field, not a flag: compare it with one of its cases, e.g. \(example)", at: location)
    }

    fileprivate static func flagComparedWithCase(_ name: String, at location: SourceLocation) -> Diagnostic {
        .error(
            .type,
            "'\(name)' is a flag, not a field: write '\(name)' or 'not \(name)' instead of comparing it with a case",
            at: location)
    }

    fileprivate static func noSuchCase(
        _ name: String, field: String, suggestion: String?, at location: SourceLocation, notes: [Note]
    ) -> Diagnostic {
        .error(
            .unknownName, "field '\(field)' has no case named '\(name)'" + didYouMean(suggestion), at: location,
            notes: notes, fixIts: nameFixIts(name, suggestion, at: location))
    }

    fileprivate static func noSuchName(
        _ name: String, suggestion: String?, withEvents: Bool, at location: SourceLocation
    ) -> Diagnostic {
        .error(
            .unknownName,
            "no flag\(withEvents ? ", field or event" : " or field") named '\(name)'" + didYouMean(suggestion),
            at: location, fixIts: nameFixIts(name, suggestion, at: location))
    }

    fileprivate static func unknownMember(_ member: String, event: String, at location: SourceLocation) -> Diagnostic {
        .error(
            .unknownName, "an event has 'count' and 'sum', not '\(member)': write '\(event).count' or '\(event).sum'",
            at: location)
    }

    fileprivate static func sumOfCountedEvent(_ event: String, at location: SourceLocation) -> Diagnostic {
        .error(
            .eventValue,
            "'\(event)' is logged without a value, so it has no sum; declare it 'event \(event) value USD', or compare '\(event).count'",
            at: location)
    }

    fileprivate static func hoursUnreachable(_ number: NumberLiteral, _ op: ComparisonOperator) -> Diagnostic {
        .warning(
            .unreachableTime,
            "'hours \(op.rawValue) \(number.text)' holds at no update: the last window ends at hour \(Int(Checker.lastWindowHour))",
            at: number.location)
    }

    /// A condition longer than any schema needs.
    static func conditionTooLong(terms: Int, at location: SourceLocation) -> Diagnostic {
        .error(
            .limit,
            "the condition names \(terms) flags and comparisons; a condition may name at most \(Checker.maximumConditionTerms): compare a field with '>=' or '<', or split the rule",
            at: location)
    }
}

/// `; did you mean 'x'?` after a name that does not exist, when a close one does.
private func didYouMean(_ suggestion: String?) -> String {
    suggestion.map { "; did you mean '\($0)'?" } ?? ""
}

/// The fix-it that goes with a "did you mean": the misspelled name replaced by the suggestion.
func nameFixIts(_ name: String, _ suggestion: String?, at location: SourceLocation) -> [Diagnostic.FixIt] {
    suggestion.map { [Diagnostic.FixIt(replacing: name, at: location, with: $0)] } ?? []
}
