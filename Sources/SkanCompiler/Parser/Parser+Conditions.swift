import SkanCore
import SkanSchema

extension Parser {
    /// `cond = term { "or" term }`
    mutating func parseCondition(depth: Int = 0) throws(Recovery) -> ConditionSyntax {
        var terms = [try parseTerm(depth: depth)]
        while accept("or") { terms.append(try parseTerm(depth: depth)) }
        return terms.count == 1 ? terms[0] : .any(terms)
    }

    /// `term = factor { "and" factor }`
    mutating func parseTerm(depth: Int) throws(Recovery) -> ConditionSyntax {
        var factors = [try parseFactor(depth: depth)]
        while accept("and") { factors.append(try parseFactor(depth: depth)) }
        return factors.count == 1 ? factors[0] : .all(factors)
    }

    /// `factor = "not" factor | "(" cond ")" | Ident [ op Ident ]`
    mutating func parseFactor(depth: Int) throws(Recovery) -> ConditionSyntax {
        if depth > Parser.maximumConditionDepth {
            diagnostics.append(
                .conditionTooDeep(at: current.location))
            throw Recovery()
        }
        let location = current.location
        if accept("not") {
            return .not(location, try parseFactor(depth: depth + 1))
        }
        if let open = accept(.leftParen) {
            let inner = try parseCondition(depth: depth + 1)
            if accept(.rightParen) == nil {
                diagnostics.append(
                    .unclosedParenthesis(found: current, open: open.location))
                throw Recovery()
            }
            return .parenthesized(inner)
        }
        if isKeyword("hours"), case .comparison(let op) = peek(1).kind,
            peek(2).kind == .integer || peek(2).kind == .decimal
        {
            advance()
            advance()
            return .hours(location, op, try parseNumber(what: "a number of hours"))
        }
        let name = try expectIdentifier("a flag, field or event name", context: "in a condition")
        if accept(.dot) != nil {
            let member = try expectIdentifier("'count' or 'sum'", context: "after '\(name.text).'")
            guard case .comparison(let op) = current.kind else {
                try fail(
                    expected: "a comparison ('\(name.text).\(member.text) >= 2')",
                    context: "after '\(name.text).\(member.text)'")
            }
            advance()
            return .eventMeasure(name, member: member, op, try parseNumber(what: "a count or an amount"))
        }
        if let equals = accept(.equals) {
            // `a = big`: one error with the fix, then read as the comparison it means.
            let caseName = try expectIdentifier("a case name", context: "after '='")
            diagnostics.append(.assignmentInCondition(field: name.text, caseName: caseName.text, at: equals.location))
            return .comparison(name, .equal, caseName)
        }
        guard case .comparison(let op) = current.kind else { return .name(name) }
        advance()
        let caseName = try expectIdentifier("a case name", context: "after '\(op.rawValue)'")
        return .comparison(name, op, caseName)
    }
}

extension Diagnostic {
    fileprivate static func conditionTooDeep(at location: SourceLocation) -> Diagnostic {
        .error(
            .limit,
            "the condition nests deeper than \(Parser.maximumConditionDepth) levels of 'not' and parentheses; simplify it",
            at: location)
    }

    fileprivate static func unclosedParenthesis(found token: Token, open: SourceLocation) -> Diagnostic {
        .error(
            .syntax, "expected ')' to close the '(', found \(token.quoted)", at: token.location,
            notes: [.init("the '(' is here", at: open)])
    }

    /// `a = big` in a condition: comparisons are `==`.
    static func assignmentInCondition(field: String, caseName: String, at location: SourceLocation) -> Diagnostic {
        .error(.syntax, "compare with '==': write '\(field) == \(caseName)'", at: location)
    }
}
