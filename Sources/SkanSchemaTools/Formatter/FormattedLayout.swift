import SkanCompiler
import SkanCore

/// The layout `SchemaFormatter` writes: which tokens start a line and what kind of line, then the lines,
/// aligned, with the comments in place.
struct FormattedLayout {
    /// What a line holds, which decides its alignment and the blank lines around it.
    enum LineKind: Equatable {
        case header
        case declaration(String)
        case caseEntry(block: Int)
        case rule(block: Int)
        case closingBrace, continuation
    }

    private let tokens: [Token]
    private let raw: [String]
    private let comments: SourceComments
    /// By token index: the kind of line the token starts.
    private var lineStarts: [Int: LineKind] = [:]
    private var indexOfOffset: [Int: Int] = [:]

    init(tokens: [Token], bytes: [UInt8]) {
        self.tokens = tokens
        raw = tokens.map { token in
            token.kind == .endOfFile
                ? ""
                : String(
                    decoding: bytes[token.location.offset..<SourceComments.end(of: token, in: bytes)], as: UTF8.self)
        }
        comments = SourceComments(tokens: tokens, bytes: bytes)
        for (index, token) in tokens.enumerated() { indexOfOffset[token.location.offset] = index }
    }

    /// Marks the tokens that start lines, from the syntax tree's locations.
    mutating func mark(_ syntax: SchemaSyntax) {
        start(at: syntax.location, .header)
        if let version = syntax.version, let index = indexOfOffset[version.location.offset], index > 0 {
            lineStarts[index - 1] = .header
        }
        var block = 0
        for declaration in syntax.declarations {
            block += 1
            switch declaration {
            case .event(let event): start(at: event.keyword, .declaration("event"))
            case .flag(let flag): start(at: flag.keyword, .declaration("flag"))
            case .reserved(let reserved): start(at: reserved.keyword, .declaration("reserved"))
            case .lock(let lock): start(at: lock.keyword, .declaration("lock"))
            case .field(let field):
                start(at: field.keyword, .declaration("field"))
                for entry in field.cases { start(at: entry.name.location, .caseEntry(block: block)) }
            case .coarse(let coarse):
                start(at: coarse.keyword, .declaration("coarse"))
                for rule in coarse.rules { start(at: rule.location, .rule(block: block)) }
            }
        }
        for (index, token) in tokens.enumerated() where token.kind == .rightBrace { lineStarts[index] = .closingBrace }
    }

    private mutating func start(at location: SourceLocation, _ kind: LineKind) {
        if let index = indexOfOffset[location.offset] { lineStarts[index] = kind }
    }

    /// One line of code before alignment.
    struct Line {
        var kind: LineKind
        var depth: Int
        var cells: [String]
        var trailing: String?
        var firstToken: Int
    }

    /// The lines of output: code (to align) or fixed text (comments, blank lines).
    enum Row {
        case code(Line)
        case text(String)
    }

    func render() -> String {
        var rows: [Row] = []
        var depth = 0
        var current: Line? = nil
        var previousDeclaration: (kind: LineKind, lastToken: Int)? = nil
        func flush() {
            if let line = current { rows.append(.code(line)) }
            current = nil
        }
        for (index, token) in tokens.enumerated() {
            if token.kind == .rightBrace { depth -= 1 }
            let kind = lineStarts[index]
            let leading = comments.leading[index] ?? []
            if kind != nil || !leading.isEmpty || token.kind == .endOfFile { flush() }
            if case .declaration(let name)? = kind {
                let together =
                    previousDeclaration.map { previous in
                        previous.kind == .declaration(name) && name != "field" && name != "coarse"
                            && leading.isEmpty && comments.lineBreaksBefore[index] < 2
                    } ?? false
                if !together { rows.append(.text("")) }
                previousDeclaration = (.declaration(name), index)
            }
            let indent = String(repeating: "  ", count: max(depth, 0))
            for (number, comment) in leading.enumerated() {
                let blank = comment.blankBefore && !(number == 0 && kind.map(Self.isDeclaration) == true)
                if blank, !rows.isEmpty { rows.append(.text("")) }
                rows.append(.text(indent + comment.text))
            }
            if !leading.isEmpty, comments.blankAfterLeading.contains(index), token.kind != .endOfFile {
                rows.append(.text(""))
            }
            guard token.kind != .endOfFile else { break }
            if current == nil {
                current = Line(
                    kind: kind ?? .continuation, depth: kind == nil ? depth + 2 : depth, cells: [], trailing: nil,
                    firstToken: index)
            }
            current!.cells.append(raw[index])
            if token.kind == .leftBrace { depth += 1 }
            if let trailing = comments.trailing[index] {
                current!.trailing = trailing
                flush()
            }
        }
        flush()
        return Self.join(Self.align(rows))
    }

    private static func isDeclaration(_ kind: LineKind) -> Bool {
        if case .declaration = kind { return true }
        return false
    }

    /// Rows to text: blank lines collapsed to one, none at the start or end.
    private static func join(_ lines: [String]) -> String {
        var out: [String] = []
        for line in lines where !(line.isEmpty && (out.isEmpty || out.last!.isEmpty)) { out.append(line) }
        while out.last?.isEmpty == true { out.removeLast() }
        return out.joined(separator: "\n") + "\n"
    }
}
