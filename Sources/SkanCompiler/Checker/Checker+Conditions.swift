extension Checker {
    /// Resolves names to field indices and case codes; reports `unknown-name` and `type` errors.
    /// Returns nil when any part could not be resolved.
    mutating func resolve(_ syntax: ConditionSyntax) -> Condition? {
        switch syntax {
        case .parenthesized(let inner):
            return resolve(inner)
        case .name(let name):
            guard let field = lookUp(name) else { return nil }
            guard fields[field].isFlag else {
                let example = fields[field].cases.first.map { "'\(name.text) != \($0.name)'" } ?? "a comparison"
                return failed(
                    .error(
                        .type,
                        "'\(name.text)' is a field, not a flag: compare it with one of its cases, e.g. \(example)",
                        at: name.location))
            }
            return .flag(field: field)
        case .comparison(let name, let op, let caseName):
            guard let field = lookUp(name) else { return nil }
            guard !fields[field].isFlag else {
                return failed(
                    .error(
                        .type,
                        "'\(name.text)' is a flag, not a field: write '\(name.text)' or 'not \(name.text)' instead of comparing it with a case",
                        at: name.location))
            }
            guard let fieldCase = fields[field].caseNamed(caseName.text) else {
                let suggestion = NameSuggestion.closest(to: caseName.text, among: fields[field].cases.map(\.name))
                return failed(
                    .error(
                        .unknownName,
                        "field '\(name.text)' has no case named '\(caseName.text)'" + didYouMean(suggestion),
                        at: caseName.location, notes: caseList(of: fields[field])))
            }
            return .comparison(field: field, op, code: fieldCase.code)
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
        let suggestion =
            declared.count <= NameSuggestion.maximumCandidates
            ? NameSuggestion.closest(to: name.text, among: declared.keys.sorted()) : nil
        return failed(
            .error(.unknownName, "no flag or field named '\(name.text)'" + didYouMean(suggestion), at: name.location))
    }

    private mutating func failed<T>(_ diagnostic: Diagnostic) -> T? {
        conditionsResolved = false
        report(diagnostic)
        return nil
    }

    private func didYouMean(_ suggestion: String?) -> String {
        suggestion.map { "; did you mean '\($0)'?" } ?? ""
    }

    private func caseList(of field: Field) -> [Diagnostic.Note] {
        [.init("the cases of '\(field.name)' are " + listed(field.cases.map { "'\($0.name)'" }))]
    }
}
