package import SkanCore

/// Builds a `SchemaSyntax` from tokens by recursive descent, recovering after each error so that one run
/// reports many. A declaration with an error is left out of the tree; the checker sees the rest.
package struct Parser {
    /// Parentheses and `not`s may nest this deep in one condition; deeper input gets a `limit` error
    /// instead of exhausting the stack. A test parses, checks, formats, generates and evaluates a condition
    /// this deep on a thread with 512 KiB of stack, what Darwin gives a secondary thread (a debug build takes
    /// over 4 KiB a level: 128 levels do not fit).
    package static let maximumConditionDepth = 64

    /// Thrown inside a declaration after its diagnostic is recorded, to unwind to a recovery point.
    struct Recovery: Error {}

    static let declarationKeywords: Set<String> = ["event", "flag", "field", "reserved", "coarse", "lock"]

    let tokens: [Token]
    var position = 0
    package internal(set) var diagnostics: [Diagnostic] = []

    package init(tokens: [Token]) {
        precondition(tokens.last?.kind == .endOfFile, "the token stream must end with .endOfFile")
        self.tokens = tokens
    }

    /// Lexes and parses `bytes`, returning the tree with every lexical and syntax diagnostic.
    package static func parse(_ bytes: [UInt8]) -> (syntax: SchemaSyntax, diagnostics: [Diagnostic]) {
        let (tokens, lexDiagnostics) = Lexer.tokenize(bytes)
        var parser = Parser(tokens: tokens)
        let syntax = parser.parseSchema()
        return (syntax, (lexDiagnostics + parser.diagnostics).sortedByLocation())
    }

    // MARK: Token helpers

    var current: Token { tokens[position] }

    func peek(_ ahead: Int) -> Token { tokens[min(position + ahead, tokens.count - 1)] }

    var atEnd: Bool { current.kind == .endOfFile }

    mutating func advance() {
        if position < tokens.count - 1 { position += 1 }
    }

    func isKeyword(_ keyword: String) -> Bool {
        current.kind == .identifier && current.text == keyword
    }

    /// Consumes `keyword` if it is next.
    mutating func accept(_ keyword: String) -> Bool {
        guard isKeyword(keyword) else { return false }
        advance()
        return true
    }

    mutating func accept(_ kind: Token.Kind) -> Token? {
        guard current.kind == kind else { return nil }
        defer { advance() }
        return current
    }

    /// Records a `syntax` error at the current token and unwinds to the enclosing recovery point.
    mutating func fail(expected: String, context: String = "") throws(Recovery) -> Never {
        diagnostics.append(
            .expected(expected, context: context, found: current))
        throw Recovery()
    }

    mutating func expect(_ keyword: String, context: String = "") throws(Recovery) {
        if !accept(keyword) { try fail(expected: "'\(keyword)'", context: context) }
    }

    mutating func expect(_ kind: Token.Kind, _ description: String, context: String = "") throws(Recovery) -> Token {
        if let token = accept(kind) { return token }
        try fail(expected: description, context: context)
    }

    mutating func expectIdentifier(_ description: String, context: String = "") throws(Recovery) -> Identifier {
        let token = try expect(.identifier, description, context: context)
        return Identifier(text: token.text, location: token.location)
    }

    mutating func expectInteger(_ description: String, context: String = "") throws(Recovery) -> IntegerLiteral {
        let token = try expect(.integer, description, context: context)
        try refuseNegative(token, what: description)
        guard let value = Int(token.text), value <= 1_000_000_000 else {
            diagnostics.append(
                .integerTooLarge(token))
            throw Recovery()
        }
        return IntegerLiteral(value: value, location: token.location)
    }

    /// Bits, codes, windows and bucket bounds start at 0: a negative number is an error with the reason.
    mutating func refuseNegative(_ token: Token, what: String) throws(Recovery) {
        guard token.text.hasPrefix("-") else { return }
        diagnostics.append(
            .negative(token, what: what))
        throw Recovery()
    }

    mutating func optionalString() -> StringLiteral? {
        accept(.string).map { StringLiteral(value: $0.text, location: $0.location) }
    }

    // MARK: Recovery

    /// Skips to the next token that begins a line and starts a declaration (or the end of the file).
    mutating func skipToNextDeclaration() {
        advance()
        while !atEnd {
            if current.startsLine, current.kind == .identifier, Parser.declarationKeywords.contains(current.text) {
                return
            }
            advance()
        }
    }

    /// Inside a block: skips to the next token that begins a line, or to the block's closing brace.
    mutating func skipToNextLineInBlock() {
        if current.kind != .rightBrace { advance() }
        while !atEnd, !current.startsLine, current.kind != .rightBrace { advance() }
    }
}

extension Diagnostic {
    fileprivate static func expected(_ expected: String, context: String, found token: Token) -> Diagnostic {
        let suffix = context.isEmpty ? "" : " " + context
        return .error(.syntax, "expected \(expected)\(suffix), found \(token.quoted)", at: token.location)
    }

    fileprivate static func integerTooLarge(_ token: Token) -> Diagnostic {
        .error(.limit, "the integer \(token.text.prefix(40)) is too large (at most 1000000000)", at: token.location)
    }

    fileprivate static func negative(_ token: Token, what: String) -> Diagnostic {
        .error(
            .syntax, "\(what) cannot be negative (\(token.text)): bits, codes, windows, amounts and counts start at 0",
            at: token.location)
    }
}
