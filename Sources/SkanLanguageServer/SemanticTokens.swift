import SkanCompiler
import SkanCore

/// `textDocument/semanticTokens`: every token of a document classified by what it is, not by how it looks, so
/// that editors without the TextMate grammar (Neovim, Helix, Emacs) colour schemas, and a field named `count` or
/// `hours` is coloured as the field it is. Names are classified by `SymbolIndex` (by scope), then keywords,
/// coarse values, numbers, strings, operators and comments.
struct SemanticTokens {
    /// The token types, in the order the legend declares them (a token's type is its index).
    enum TokenType: Int, CaseIterable {
        case keyword, event, variable, property, enumMember, number, string, comment, `operator`, namespace, type

        /// The protocol's name of the type.
        var name: String {
            switch self {
            case .keyword: "keyword"
            case .event: "event"
            case .variable: "variable"
            case .property: "property"
            case .enumMember: "enumMember"
            case .number: "number"
            case .string: "string"
            case .comment: "comment"
            case .operator: "operator"
            case .namespace: "namespace"
            case .type: "type"
            }
        }
    }

    /// The one modifier: a name where it is declared.
    static let declarationModifier = 1

    /// The legend the server declares: types and modifiers, by index.
    static var legend: JSONValue {
        .object([
            ("tokenTypes", .array(TokenType.allCases.map { .string($0.name) })),
            ("tokenModifiers", .array([.string("declaration")])),
        ])
    }

    /// One classified token: where (protocol units) and what.
    struct Item: Equatable {
        var line: Int
        var character: Int
        var length: Int
        var type: TokenType
        var declaration: Bool
    }

    let items: [Item]

    init(text: String, names: NameFeatures) {
        let bytes = Array(text.utf8)
        let tokens = Lexer.tokenize(bytes).tokens.filter { $0.kind != .endOfFile }
        var items: [Item] = []
        var previousEnd = 0
        var previous: Token?
        var position = LinePosition(start: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0)
        for token in tokens {
            // Comments stand between tokens: from `#` to the end of its line.
            items += Self.comments(
                in: bytes, from: previousEnd, to: token.location.offset, lines: names.lines, position: &position)
            if let type = Self.type(of: token, after: previous, names: names) {
                let length = DeclarationExtents.writtenLength(token, in: bytes)
                let start = names.lines.position(line: token.location.line, column: token.location.column)
                let end = names.lines.position(line: token.location.line, column: token.location.column + length)
                let occurrence = names.index.occurrence(atByte: token.location.offset)
                let declared = occurrence.map { names.index.symbols[$0.symbol].declaration == $0.name } ?? false
                items.append(
                    Item(
                        line: start.line, character: start.character, length: end.character - start.character,
                        type: type, declaration: declared && token.kind == .identifier))
            }
            previousEnd = token.location.offset + DeclarationExtents.writtenLength(token, in: bytes)
            previous = token
        }
        items += Self.comments(
            in: bytes, from: previousEnd, to: bytes.count, lines: names.lines, position: &position)
        self.items = items
    }

    private static func type(of token: Token, after previous: Token?, names: NameFeatures) -> TokenType? {
        switch token.kind {
        case .integer, .decimal: return .number
        case .string: return .string
        case .comparison, .closedRange, .halfOpenRange, .plus, .equals: return .operator
        case .leftBrace, .rightBrace, .leftParen, .rightParen, .dot, .endOfFile: return nil
        case .identifier: break
        }
        if let occurrence = names.index.occurrence(atByte: token.location.offset),
            occurrence.name.location.offset == token.location.offset
        {
            switch names.index.symbols[occurrence.symbol].kind {
            case .event: return .event
            case .flag: return .variable
            case .field: return .property
            case .fieldCase: return .enumMember
            }
        }
        switch previous?.text {
        case "schema" where previous?.kind == .identifier: return .namespace
        case "value" where previous?.kind == .identifier: return .type
        default: break
        }
        // `purchase.count`: the measure of an event.
        if previous?.kind == .dot { return .property }
        if Completion.coarseHeads.contains(token.text) { return .enumMember }
        return SchemaIdentifier.keywords.contains(token.text) ? .keyword : nil
    }

    /// Where the scan of the gaps between tokens stands: the 1-based line and the offset it starts at (after a
    /// byte order mark on line 1, as the compiler counts columns). Tokens hold no line break, so the gaps see them
    /// all.
    private struct LinePosition {
        var line = 1
        var start: Int
    }

    /// The comments in `bytes[from..<to]`, which holds no token; `position` follows the line breaks.
    private static func comments(
        in bytes: [UInt8], from: Int, to: Int, lines: LineTable, position: inout LinePosition
    ) -> [Item] {
        var items: [Item] = []
        var index = from
        while index < to {
            if bytes[index] == UInt8(ascii: "#") {
                var end = index
                while end < to, !LineBreak.isLineEnd(bytes[end]) { end += 1 }
                let column = index - position.start + 1
                let start = lines.position(line: position.line, column: column)
                let stop = lines.position(line: position.line, column: column + end - index)
                items.append(
                    Item(
                        line: start.line, character: start.character, length: stop.character - start.character,
                        type: .comment, declaration: false))
                index = end
            } else {
                if LineBreak.isBreak(bytes, at: index) {
                    position.line += 1
                    position.start = index + 1
                }
                index += 1
            }
        }
        return items
    }

    /// The protocol's encoding: five numbers a token, each position relative to the token before.
    var data: [Int] {
        var data: [Int] = []
        data.reserveCapacity(items.count * 5)
        var line = 0
        var character = 0
        for item in items where item.length > 0 {
            data += [
                item.line - line, item.line == line ? item.character - character : item.character, item.length,
                item.type.rawValue, item.declaration ? Self.declarationModifier : 0,
            ]
            (line, character) = (item.line, item.character)
        }
        return data
    }
}
