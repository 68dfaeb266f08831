import SkanCore
import SkanSchema

extension Parser {
    /// `file = "schema" Ident "version" Int { decl }`
    package mutating func parseSchema() -> SchemaSyntax {
        var syntax = SchemaSyntax(location: current.location, name: nil, version: nil, declarations: [])
        do {
            try expect("schema", context: "at the start of the file (a schema begins with 'schema Name')")
            syntax.name = try expectIdentifier("a schema name", context: "after 'schema'")
            try expect("version", context: "after the schema name (write 'version 1' on the next line)")
            syntax.version = try expectInteger("a version number", context: "after 'version'")
        } catch {
            if !(current.startsLine && Parser.declarationKeywords.contains(current.text)) { skipToNextDeclaration() }
        }
        while !atEnd {
            do {
                syntax.declarations.append(try parseDeclaration())
            } catch {
                skipToNextDeclaration()
            }
        }
        return syntax
    }

    mutating func parseDeclaration() throws(Recovery) -> DeclarationSyntax {
        let keyword = current.location
        if accept("event") {
            let name = try expectIdentifier("an event name", context: "after 'event'")
            let currency =
                accept("value")
                ? try expectIdentifier("a currency code (ISO 4217, such as USD)", context: "after 'value'") : nil
            return .event(EventSyntax(keyword: keyword, name: name, currency: currency))
        }
        if accept("flag") {
            let name = try expectIdentifier("a flag name", context: "after 'flag'")
            try expect("at", context: "after the flag name")
            try expect("bit", context: "after 'at' (a flag takes one bit: 'at bit 0')")
            let bit = try expectInteger("a bit index", context: "after 'bit'")
            var flag = FlagSyntax(
                keyword: keyword, name: name, bit: BitsSyntax(lower: bit), description: optionalString())
            if accept("when") { flag.condition = try parseCondition() }
            return .flag(flag)
        }
        if accept("field") { return .field(try parseField(keyword: keyword)) }
        if accept("reserved") {
            let bits = try parseBits(context: "after 'reserved'")
            let code =
                accept(.equals) != nil
                ? try expectInteger("the code the reserved bits hold", context: "after '='") : nil
            return .reserved(
                ReservedSyntax(keyword: keyword, bits: bits, code: code, description: optionalString()))
        }
        if accept("coarse") { return .coarse(try parseCoarseBlock(keyword: keyword)) }
        if accept("lock") {
            let windows = try parseOptionalWindows()
            if accept("after") {
                let hours = try parseNumber(what: "a number of hours")
                try expect("hours", context: "after the number ('lock window 1 after 36 hours')")
                return .lock(LockSyntax(keyword: keyword, windows: windows, trigger: .after(hours: hours)))
            }
            try expect(
                "when",
                context: "in a lock rule ('lock window 1 when paymentTier == high' or 'lock window 1 after 36 hours')")
            return .lock(LockSyntax(keyword: keyword, windows: windows, trigger: .condition(try parseCondition())))
        }
        try fail(expected: "a declaration ('event', 'flag', 'field', 'reserved', 'coarse' or 'lock')")
    }

    /// `bits = "bit" Int | "bits" Int "..." Int`
    mutating func parseBits(context: String) throws(Recovery) -> BitsSyntax {
        if accept("bit") {
            let bit = try expectInteger("a bit index", context: "after 'bit'")
            guard current.kind == .closedRange || current.kind == .halfOpenRange else { return BitsSyntax(lower: bit) }
            // `bit 0...1`: one error with the fix, then read as the range it means.
            diagnostics.append(
                .bitRangeWithoutBits(from: bit.value, to: peek(1).text, at: current.location))
            _ = try expect(.closedRange, "'...'", context: "in a bit range ('bits 1...2')")
            return BitsSyntax(lower: bit, upper: try expectInteger("the last bit of a range", context: "after '...'"))
        }
        if accept("bits") {
            let lower = try expectInteger("the first bit of a range", context: "after 'bits'")
            _ = try expect(.closedRange, "'...'", context: "in a bit range ('bits 1...2')")
            let upper = try expectInteger("the last bit of a range", context: "after '...'")
            return BitsSyntax(lower: lower, upper: upper)
        }
        try fail(expected: "'bit' or 'bits'", context: context)
    }

    /// `field = "field" Ident "at" bits [String] ["buckets" ("amount"|"count")] "{" case { case } "}"`
    mutating func parseField(keyword: SourceLocation) throws(Recovery) -> FieldSyntax {
        let name = try expectIdentifier("a field name", context: "after 'field'")
        try expect("at", context: "after the field name")
        let bits = try parseBits(context: "after 'at'")
        var field = FieldSyntax(
            keyword: keyword, name: name, bits: bits, description: optionalString(),
            buckets: nil, cases: [])
        let bucketsLocation = current.location
        if accept("buckets") {
            let measureLocation = current.location
            if accept("amount") {
                field.buckets = (.amount, bucketsLocation)
                if accept("of") { field.source = try parseSource(.amount, at: measureLocation) }
            } else if accept("count") {
                field.buckets = (.count, bucketsLocation)
                if accept("of") { field.source = try parseSource(.count, at: measureLocation) }
            } else {
                try fail(expected: "'amount' or 'count'", context: "after 'buckets'")
            }
        } else if isKeyword("count"), peek(1).kind == .identifier, peek(1).text == "of" {
            // `count of days` or `count of E`: the code is the number itself; no cases.
            let measureLocation = current.location
            advance()
            advance()
            field.source = try parseSource(.count, at: measureLocation)
            return field
        }
        let brace = try expect(.leftBrace, "'{'", context: "to open the cases of field '\(name.text)'")
        let complete = try parseBlock(opening: brace, name: "field '\(name.text)'") { parser throws(Recovery) in
            field.cases.append(try parser.parseCase())
        }
        if field.cases.isEmpty, complete {
            diagnostics.append(
                .fieldWithoutCases(name.text, at: brace.location))
        }
        return field
    }

    /// `case = Ident "=" Int [String] [range]`
    mutating func parseCase() throws(Recovery) -> CaseSyntax {
        let name = try expectIdentifier("a case name", context: "in a field's cases")
        _ = try expect(.equals, "'='", context: "after case name '\(name.text)'")
        let code = try expectInteger("a case code", context: "after '='")
        var description = optionalString()
        var range: BucketRangeSyntax? = nil
        if current.kind == .integer || current.kind == .decimal {
            range = try parseBucketRange(caseName: name.text)
        }
        if description == nil, let range, let late = optionalString() {
            // The range before the description: one error with the fix, and the case is read as meant.
            diagnostics.append(
                .descriptionAfterRange(
                    case: name.text, code: code.value, description: late.value, range: range.text, at: late.location))
            description = late
        }
        var syntax = CaseSyntax(name: name, code: code, description: description, range: range)
        let derivationLocation = current.location
        if accept("when") {
            syntax.derivation = CaseDerivationSyntax(location: derivationLocation, condition: try parseCondition())
        } else if accept("otherwise") {
            syntax.derivation = CaseDerivationSyntax(location: derivationLocation, condition: nil)
        }
        return syntax
    }

    /// `E1 + E2 … [within N hours | in window]` or `days`, after `of`.
    mutating func parseSource(_ measure: SourceSyntax.Measure, at location: SourceLocation) throws(Recovery)
        -> SourceSyntax
    {
        if measure == .count, accept("days") {
            return SourceSyntax(location: location, measure: .days, events: [], scope: .sinceFirstLaunch)
        }
        var events = [try expectIdentifier("an event name", context: "after 'of'")]
        while accept(.plus) != nil { events.append(try expectIdentifier("an event name", context: "after '+'")) }
        var scope = SourceSyntax.Scope.sinceFirstLaunch
        if accept("within") {
            let hours = try parseNumber(what: "a number of hours")
            try expect("hours", context: "after the number ('within 48 hours')")
            scope = .within(hours: hours)
        } else if isKeyword("in") {
            let inLocation = current.location
            advance()
            try expect("window", context: "after 'in' ('in window': since the current window began)")
            scope = .inWindow(inLocation)
        }
        return SourceSyntax(location: location, measure: measure, events: events, scope: scope)
    }

    /// `0..<0.01`, `0...1`, `100...` or `3` (for `3...3`)
    mutating func parseBucketRange(caseName: String) throws(Recovery) -> BucketRangeSyntax {
        let lower = try parseNumber()
        if accept(.halfOpenRange) != nil {
            return BucketRangeSyntax(lower: lower, upper: try parseNumber(), isHalfOpen: true)
        }
        if current.kind != .closedRange,
            current.startsLine || current.kind == .rightBrace || isKeyword("when") || isKeyword("otherwise")
                || (current.kind == .identifier && peek(1).kind == .equals)
        {
            // A single value: `3` is `3...3`.
            return BucketRangeSyntax(lower: lower, upper: lower, isHalfOpen: false, isSingleValue: true)
        }
        _ = try expect(.closedRange, "'...' or '..<'", context: "after a bucket's lower bound")
        let upper = (current.kind == .integer || current.kind == .decimal) ? try parseNumber() : nil
        return BucketRangeSyntax(lower: lower, upper: upper, isHalfOpen: false)
    }

    mutating func parseNumber(what: String = "a bucket bound") throws(Recovery) -> NumberLiteral {
        let token = current
        guard token.kind == .integer || token.kind == .decimal else { try fail(expected: "a number") }
        advance()
        try refuseNegative(token, what: what)
        guard let value = Double(token.text), value.isFinite, value <= ConditionNumber.largest else {
            diagnostics.append(
                .numberTooLarge(token))
            throw Recovery()
        }
        return NumberLiteral(
            text: token.text, value: value, isInteger: token.kind == .integer, location: token.location)
    }

    /// `windows = "window" Int | "windows" Int "..." Int`, or nothing.
    mutating func parseOptionalWindows() throws(Recovery) -> WindowsSyntax? {
        if accept("window") {
            let lower = try expectInteger("a window number (1, 2 or 3)", context: "after 'window'")
            if let range = accept(.closedRange) {
                // `window 1...3`: one error with the fix, then read as the range it means.
                let upper = try expectInteger("the last window of a range", context: "after '...'")
                diagnostics.append(.singularWindowRange(lower: lower.value, upper: upper.value, at: range.location))
                return WindowsSyntax(lower: lower, upper: upper)
            }
            return WindowsSyntax(lower: lower)
        }
        if accept("windows") {
            let lower = try expectInteger("the first window of a range", context: "after 'windows'")
            _ = try expect(.closedRange, "'...'", context: "in a window range ('windows 2...3')")
            let upper = try expectInteger("the last window of a range", context: "after '...'")
            return WindowsSyntax(lower: lower, upper: upper)
        }
        return nil
    }

    /// `coarse = "coarse" [windows] "{" rule { rule } "}"`
    mutating func parseCoarseBlock(keyword: SourceLocation) throws(Recovery) -> CoarseBlockSyntax {
        let windows = try parseOptionalWindows()
        let brace = try expect(.leftBrace, "'{'", context: "to open the coarse rules")
        var block = CoarseBlockSyntax(keyword: keyword, windows: windows, rules: [])
        let complete = try parseBlock(opening: brace, name: "the coarse block") { parser throws(Recovery) in
            block.rules.append(try parser.parseCoarseRule())
        }
        if block.rules.isEmpty, complete {
            diagnostics.append(
                .coarseBlockWithoutRules(at: brace.location))
        }
        return block
    }

    /// The items of a `{ ... }` block up to its closing brace. An item with an error is skipped to the next
    /// line, so the rest of the block is still read. Returns false when some item had an error.
    mutating func parseBlock(
        opening brace: Token, name: String,
        item: (inout Parser) throws(Recovery) -> Void
    ) throws(Recovery) -> Bool {
        var complete = true
        while current.kind != .rightBrace {
            // A declaration keyword that starts a line and is not a case (`field other at …`, not
            // `field = 0`): the block's '}' is missing. Say so once, and read the declaration.
            if current.startsLine, current.kind == .identifier, Parser.declarationKeywords.contains(current.text),
                peek(1).kind != .equals
            {
                diagnostics.append(
                    .unclosedBrace(name, before: current.text, at: current.location, open: brace.location))
                return false
            }
            if atEnd {
                diagnostics.append(
                    .unclosedBrace(name, before: nil, at: current.location, open: brace.location))
                throw Recovery()
            }
            let start = position
            do {
                try item(&self)
            } catch {
                complete = false
                // An item whose error is found at the next line's first token ends before that line: the
                // next item starts there and is kept.
                if position == start || !current.startsLine { skipToNextLineInBlock() }
            }
        }
        advance()
        return complete
    }

    /// `rule = ("low" | "medium" | "high" | "nothing") ("when" cond | "otherwise")`
    mutating func parseCoarseRule() throws(Recovery) -> CoarseRuleSyntax {
        let location = current.location
        let head = current.text
        guard current.kind == .identifier, head == CoarseRule.nothing || CoarseValue(rawValue: head) != nil else {
            try fail(expected: "a coarse rule starting with 'low', 'medium', 'high' or 'nothing'")
        }
        let value = CoarseValue(rawValue: head)
        advance()
        if accept("otherwise") { return CoarseRuleSyntax(value: value, location: location, condition: nil) }
        try expect("when", context: "after '\(head)' (write 'when <condition>' or 'otherwise')")
        return CoarseRuleSyntax(value: value, location: location, condition: try parseCondition())
    }
}

extension Diagnostic {
    fileprivate static func bitRangeWithoutBits(from bit: Int, to upper: String, at location: SourceLocation)
        -> Diagnostic
    {
        .error(.syntax, "a range of bits is written with 'bits': 'bits \(bit)...\(upper)'", at: location)
    }

    fileprivate static func fieldWithoutCases(_ name: String, at location: SourceLocation) -> Diagnostic {
        .error(.syntax, "field '\(name)' has no cases; declare at least one ('none = 0')", at: location)
    }

    fileprivate static func descriptionAfterRange(
        case name: String, code: Int, description: String, range: String, at location: SourceLocation
    ) -> Diagnostic {
        .error(
            .syntax,
            "a case's description comes before its range: write '\(name) = \(code) \"\(description)\" \(range)'",
            at: location)
    }

    fileprivate static func numberTooLarge(_ token: Token) -> Diagnostic {
        .error(.limit, "the number \(token.text.prefix(40)) is too large (at most 1e15)", at: token.location)
    }

    fileprivate static func coarseBlockWithoutRules(at location: SourceLocation) -> Diagnostic {
        .error(.syntax, "the coarse block has no rules; end it with 'low otherwise'", at: location)
    }

    fileprivate static func unclosedBrace(
        _ name: String, before next: String?, at location: SourceLocation, open: SourceLocation
    ) -> Diagnostic {
        .error(
            .syntax, "expected '}' to close \(name)" + (next.map { " before '\($0)'" } ?? ""), at: location,
            notes: [.init("its '{' is here", at: open)])
    }
}

extension Diagnostic {
    /// `coarse window 1...3`: a range of windows is `windows`.
    static func singularWindowRange(lower: Int, upper: Int, at location: SourceLocation) -> Diagnostic {
        .error(.syntax, "a range of windows is written 'windows \(lower)...\(upper)'", at: location)
    }
}
