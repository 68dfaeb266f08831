import SkanCompiler
import SkanCore

/// The names of a document: where each event, flag, field and case is declared, and every place a name refers
/// to one, read from the lexer's tokens (so a document that does not compile still has its names).
///
/// A case name is resolved in its context: in a field's block it is that field's case; after `FIELD ==` (any
/// comparison) it is FIELD's; elsewhere it is the case of that name when only one field has it.
struct SymbolIndex {
    enum Kind: Equatable {
        case event, flag, field
        case fieldCase(field: String)
    }

    /// A declared name.
    struct Symbol: Equatable {
        var name: String
        var kind: Kind
        /// The name's token in its declaration.
        var declaration: Token
    }

    /// A name token and the symbol it declares or refers to (an index in `symbols`).
    struct Occurrence {
        var token: Token
        var symbol: Int
        /// Which declaration it stands in (`field stage`, `coarse window 1`, `lock window 1`), for hovers.
        var context: String
    }

    private(set) var symbols: [Symbol] = []
    private(set) var occurrences: [Occurrence] = []

    /// Keywords that start a declaration (docs/LanguageReference.md, grammar `file` and `decl`), in the order
    /// completion offers them: declarations first, the header last.
    static let declarationKeywords = ["event", "flag", "field", "reserved", "coarse", "lock", "schema", "version"]

    init(_ text: String) {
        let tokens = Lexer.tokenize(Array(text.utf8)).tokens
        collectDeclarations(tokens)
        collectReferences(tokens)
    }

    private mutating func collectDeclarations(_ tokens: [Token]) {
        var field: String?
        var depth = 0
        for (index, token) in tokens.enumerated() {
            switch token.kind {
            case .leftBrace: depth += 1
            case .rightBrace:
                depth = max(depth - 1, 0)
                if depth == 0 { field = nil }
            case .identifier where token.startsLine && depth == 0:
                guard index + 1 < tokens.count, tokens[index + 1].kind == .identifier else { continue }
                let name = tokens[index + 1]
                switch token.text {
                case "event": symbols.append(Symbol(name: name.text, kind: .event, declaration: name))
                case "flag": symbols.append(Symbol(name: name.text, kind: .flag, declaration: name))
                case "field":
                    symbols.append(Symbol(name: name.text, kind: .field, declaration: name))
                    field = name.text
                default: field = nil
                }
            case .identifier where token.startsLine && depth == 1:
                // `name = code ...` in a field's block declares a case.
                guard let field, index + 1 < tokens.count, tokens[index + 1].kind == .equals else { continue }
                symbols.append(Symbol(name: token.text, kind: .fieldCase(field: field), declaration: token))
            default: continue
            }
        }
    }

    private mutating func collectReferences(_ tokens: [Token]) {
        var context = ""
        var field: String?
        var depth = 0
        for (index, token) in tokens.enumerated() {
            if token.kind == .leftBrace { depth += 1 }
            if token.kind == .rightBrace { depth = max(depth - 1, 0) }
            guard token.kind == .identifier else { continue }
            if token.startsLine, depth == 0, Self.declarationKeywords.contains(token.text) {
                context = Self.context(tokens[index...])
                field = token.text == "field" && index + 1 < tokens.count ? tokens[index + 1].text : nil
                continue
            }
            // A coarse rule's head (`low when ...`) is a coarse value, not a case that shares its name.
            if token.startsLine, context.hasPrefix("coarse") { continue }
            // The member after a dot (`purchase.count`) names no symbol.
            if index > 0, tokens[index - 1].kind == .dot { continue }
            // `count of days` counts days since install; a field may still be called `days`.
            if token.text == "days", index > 0, tokens[index - 1].text == "of" { continue }
            guard let symbol = resolve(token, before: index > 1 ? Array(tokens[index - 2..<index]) : [], field: field)
            else { continue }
            occurrences.append(Occurrence(token: token, symbol: symbol, context: context))
        }
    }

    /// How a declaration is named in a hover: `field stage`, `coarse window 1`, `lock windows 2...3`.
    private static func context(_ tokens: ArraySlice<Token>) -> String {
        guard let keyword = tokens.first else { return "" }
        if ["event", "flag", "field"].contains(keyword.text) {
            return tokens.prefix(2).map(\.text).joined(separator: " ")
        }
        var text = ""
        var previous: Token?
        for token in tokens {
            guard token.location.line == keyword.location.line, token.text != "when",
                [.identifier, .integer, .closedRange].contains(token.kind)
            else { break }
            let joined = token.kind == .closedRange || previous?.kind == .closedRange
            text += (text.isEmpty || joined ? "" : " ") + token.text
            previous = token
        }
        return text
    }

    /// The symbol `token` names, in its context.
    private func resolve(_ token: Token, before: [Token], field: String?) -> Int? {
        if let declared = symbols.firstIndex(where: { $0.declaration == token }) { return declared }
        if let top = symbols.firstIndex(where: { $0.name == token.text && $0.kind.isTopLevel }) { return top }
        let cases = symbols.indices.filter { symbols[$0].name == token.text && !symbols[$0].kind.isTopLevel }
        if before.count == 2, before[0].kind == .identifier, case .comparison = before[1].kind,
            let match = cases.first(where: { symbols[$0].kind == .fieldCase(field: before[0].text) })
        {
            return match
        }
        if let field, let match = cases.first(where: { symbols[$0].kind == .fieldCase(field: field) }) { return match }
        return cases.count == 1 ? cases[0] : nil
    }

    /// The occurrence whose name covers byte `offset` (or ends at it, where a cursor stands after a word).
    func occurrence(atByte offset: Int) -> Occurrence? {
        occurrences.first { occurrence in
            let start = occurrence.token.location.offset
            return start <= offset && offset <= start + occurrence.token.text.utf8.count
        }
    }

    /// Every occurrence of symbol `index`, its declaration first.
    func occurrences(of index: Int) -> [Occurrence] {
        occurrences.filter { $0.symbol == index }
    }
}

extension SymbolIndex.Kind {
    var isTopLevel: Bool {
        if case .fieldCase = self { false } else { true }
    }
}
