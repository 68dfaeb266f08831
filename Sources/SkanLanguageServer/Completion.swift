import SkanCompiler
import SkanCore

/// `textDocument/completion`: the names and keywords the grammar accepts where the cursor stands, read from the
/// tokens before it (so a half-written document completes too). The word being typed is left to the client
/// to filter by.
struct Completion {
    /// The protocol's `CompletionItemKind` for each kind of item offered.
    enum ItemKind: Int {
        case property = 10
        case keyword = 14
        case field = 5
        case enumMember = 20
        case event = 23
    }

    struct Item: Equatable {
        var label: String
        var kind: ItemKind
        var detail: String?

        /// The protocol's `CompletionItem`.
        var json: JSONValue {
            var members: [(String, JSONValue)] = [("label", .string(label)), ("kind", .integer(kind.rawValue))]
            if let detail { members.append(("detail", .string(detail))) }
            return .object(members)
        }
    }

    /// The heads of a coarse rule.
    static let coarseHeads = ["high", "medium", "low", "nothing"]
    /// Words after which a condition's operand is expected.
    static let conditionStarts: Set<String> = ["when", "and", "or", "not"]

    let index: SymbolIndex
    let bytes: [UInt8]
    let tokens: [Token]

    init(text: String, index: SymbolIndex? = nil) {
        self.index = index ?? SymbolIndex(text)
        bytes = Array(text.utf8)
        tokens = Lexer.tokenize(bytes).tokens.filter { $0.kind != .endOfFile }
    }

    /// What may be written at byte `offset`: nothing inside a comment.
    func items(atByte offset: Int) -> [Item] {
        guard !isInComment(offset) else { return [] }
        // The tokens wholly before the word under the cursor.
        let before = tokens.prefix { token in
            token.kind == .identifier ? end(of: token) < offset : end(of: token) <= offset
        }
        let typing = tokens.first { token in
            token.kind == .identifier && token.location.offset < offset
                && offset <= token.location.offset + token.text.utf8.count
        }
        let previous = before.last
        // `purchase.` with nothing after the dot is no token yet (the lexer rejects a lone '.'): read the byte.
        let wordStart = typing?.location.offset ?? offset
        if wordStart > 0, wordStart <= bytes.count, bytes[wordStart - 1] == UInt8(ascii: "."),
            let event = before.last(where: { end(of: $0) == wordStart - 1 })
        {
            return members(of: event)
        }
        let startsLine = typing?.startsLine ?? (previous.map { !isOnLine(of: $0, offset) } ?? true)
        switch previous?.kind {
        case .comparison?:
            return cases(of: before.dropLast().last)
        case .leftParen?:
            return operands(before)
        case .plus?:
            return events()
        case .identifier? where !startsLine:
            let word = previous!.text
            if Self.conditionStarts.contains(word) { return operands(before) }
            if word == "of" {
                let afterCount = before.dropLast().last?.text == "count"
                return events() + (afterCount ? [Item(label: "days", kind: .keyword, detail: nil)] : [])
            }
            return following(previous!, in: before)
        default:
            guard startsLine else { return [] }
            switch enclosingBlock(before) {
            case nil: return SymbolIndex.declarationKeywords.map { Item(label: $0, kind: .keyword, detail: nil) }
            case "coarse"?: return Self.coarseHeads.map { Item(label: $0, kind: .keyword, detail: "coarse value") }
            default: return []
            }
        }
    }

    /// What the grammar takes after the keyword or coarse head `word`, as a declaration goes on.
    private func following(_ word: Token, in before: ArraySlice<Token>) -> [Item] {
        func keywords(_ words: [String]) -> [Item] { words.map { Item(label: $0, kind: .keyword, detail: nil) } }
        switch word.text {
        case "lock" where word.startsLine: return keywords(["window", "windows", "when", "after"])
        case "at": return keywords(["bit", "bits"])
        case "value" where before.dropLast().dropLast().last?.text == "event":
            return CurrencyMinorUnits.listedCodes.map { Item(label: $0, kind: .keyword, detail: "currency") }
        case _ where Self.coarseHeads.contains(word.text) && enclosingBlock(before) == "coarse":
            // A rule's head, at the start of a line or of the block: its condition follows.
            let starts = word.startsLine || before.dropLast().last?.kind == .leftBrace
            return starts ? keywords(["when", "otherwise"]) : []
        default: return []
        }
    }

    /// Whether byte `offset` stands in a comment: after a `#` on its line that no string holds.
    private func isInComment(_ offset: Int) -> Bool {
        var start = min(offset, bytes.count)
        while start > 0, !LineBreak.isLineEnd(bytes[start - 1]) { start -= 1 }
        var inString = false
        var index = start
        while index < min(offset, bytes.count) {
            switch bytes[index] {
            case UInt8(ascii: "\""): inString.toggle()
            case UInt8(ascii: "\\") where inString: index += 1
            case UInt8(ascii: "#") where !inString: return true
            default: break
            }
            index += 1
        }
        return false
    }

    /// Whether `token` ends on the line of byte `offset` (no line break between them).
    private func isOnLine(of token: Token, _ offset: Int) -> Bool {
        let end = min(end(of: token), bytes.count)
        return !bytes[end..<min(max(end, offset), bytes.count)].contains(10)
    }

    /// The byte offset just past `token` as written (a string's text is its decoded value).
    private func end(of token: Token) -> Int {
        token.location.offset + DeclarationExtents.writtenLength(token, in: bytes)
    }

    /// The keyword of the declaration whose block (`{ ... }`) the tokens end inside, or nil at the top level.
    private func enclosingBlock(_ before: ArraySlice<Token>) -> String? {
        var keywords: [String] = []
        var current = ""
        for token in before {
            switch token.kind {
            case .identifier where token.startsLine && keywords.isEmpty: current = token.text
            case .leftBrace: keywords.append(current)
            case .rightBrace: _ = keywords.popLast()
            default: continue
            }
        }
        return keywords.last
    }

    /// Flags, fields and events (a condition's operands), and the words a factor may start with. In a derived
    /// flag's or field's own condition, only the flags and fields declared before it: its condition reads them,
    /// not itself nor later ones (the checker's rule).
    private func operands(_ before: ArraySlice<Token>) -> [Item] {
        let limit = derivedDeclarationStart(before) ?? Int.max
        return index.symbols.compactMap { symbol in
            switch symbol.kind {
            case .flag where symbol.declaration.location.offset < limit:
                Item(label: symbol.name, kind: .field, detail: "flag")
            case .field where symbol.declaration.location.offset < limit:
                Item(label: symbol.name, kind: .field, detail: "field")
            case .flag, .field: nil
            case .event: Item(label: symbol.name, kind: .event, detail: "event")
            case .fieldCase: nil
            }
        } + ["hours", "not"].map { Item(label: $0, kind: .keyword, detail: nil) }
    }

    private func events() -> [Item] {
        index.symbols.filter { $0.kind == .event }.map { Item(label: $0.name, kind: .event, detail: "event") }
    }

    /// Where the flag or field declaration the tokens end in starts, when they end in one.
    private func derivedDeclarationStart(_ before: ArraySlice<Token>) -> Int? {
        var depth = 0
        var start: Int?
        for token in before {
            switch token.kind {
            case .leftBrace: depth += 1
            case .rightBrace: depth = max(depth - 1, 0)
            case .identifier
            where depth == 0 && token.startsLine
                && SymbolIndex.declarationKeywords.contains(token.text):
                start = ["flag", "field"].contains(token.text) ? token.location.offset : nil
            default: continue
            }
        }
        return start
    }

    /// `count` after `EVENT.`, and `sum` when the event has a value.
    private func members(of event: Token?) -> [Item] {
        guard let event, index.symbols.contains(where: { $0.kind == .event && $0.name == event.text }) else {
            return []
        }
        let count = Item(label: "count", kind: .property, detail: "times logged")
        guard index.valued.contains(event.text) else { return [count] }
        return [count, Item(label: "sum", kind: .property, detail: "sum of the amounts logged")]
    }

    /// The cases of the field before a comparison (`stage >= `).
    private func cases(of field: Token?) -> [Item] {
        guard let field else { return [] }
        return index.symbols.filter { $0.kind == .fieldCase(field: field.text) }.map {
            Item(label: $0.name, kind: .enumMember, detail: "case of \(field.text)")
        }
    }
}
