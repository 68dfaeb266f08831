import SkanCompiler
import SkanCore

/// The names of a document: where each event, flag, field and case is declared, and every place a name refers
/// to one, read from the parser's syntax tree (which it recovers after errors, so a document that does not
/// compile still has its names), wherever on a line they stand (`coarse { low otherwise }` on one line too).
///
/// Names resolve by scope, as the checker reads them: a bare name in a condition is a flag, field or event; the
/// case after `FIELD ==` (any comparison) is FIELD's case, even when a flag, field or event has the same name; a
/// case declared in a field's block is that field's. A coarse rule's head (`low`) names no symbol.
struct SymbolIndex {
    enum Kind: Equatable {
        case event, flag, field
        case fieldCase(field: String)
    }

    /// A declared name.
    struct Symbol: Equatable {
        var name: String
        var kind: Kind
        /// The name in its declaration.
        var declaration: Identifier
    }

    /// A name as written and the symbol it declares or refers to (an index in `symbols`).
    struct Occurrence {
        var name: Identifier
        var symbol: Int
        /// Which declaration it stands in (`field stage`, `coarse window 1`, `lock window 1`), for hovers.
        var context: String
    }

    private(set) var symbols: [Symbol] = []
    /// In document order.
    private(set) var occurrences: [Occurrence] = []
    /// The first flag, field or event of each name, and each field's first case of each name (as the checker
    /// takes repeated names): found in constant time, so a large document is indexed in linear time.
    private var topLevel: [String: Int] = [:]
    private var cases: [String: [String: Int]] = [:]
    /// Each declaration's name, by its offset.
    private var declared: [Int: Int] = [:]
    /// The events declared with a value (`event purchase value USD`): those with a `.sum`.
    private(set) var valued: Set<String> = []

    /// Keywords that start a declaration (docs/LanguageReference.md, grammar `file` and `decl`), in the order
    /// completion offers them: declarations first, the header last.
    static let declarationKeywords = ["event", "flag", "field", "reserved", "coarse", "lock", "schema", "version"]

    init(_ text: String) {
        self.init(Parser.parse(Array(text.utf8)).syntax)
    }

    init(_ syntax: SchemaSyntax) {
        for declaration in syntax.declarations {
            switch declaration {
            case .event(let event):
                declare(event.name, .event)
                if event.currency != nil { valued.insert(event.name.text) }
            case .flag(let flag): declare(flag.name, .flag)
            case .field(let field):
                declare(field.name, .field)
                for item in field.cases { declare(item.name, .fieldCase(field: field.name.text)) }
            case .reserved, .coarse, .lock: continue
            }
        }
        for declaration in syntax.declarations { collectReferences(declaration) }
        occurrences.sort { $0.name.location.offset < $1.name.location.offset }
    }

    private mutating func declare(_ name: Identifier, _ kind: Kind) {
        let index = symbols.count
        symbols.append(Symbol(name: name.text, kind: kind, declaration: name))
        declared[name.location.offset] = index
        switch kind {
        case .fieldCase(let field):
            if cases[field, default: [:]][name.text] == nil { cases[field, default: [:]][name.text] = index }
        case .event, .flag, .field:
            if topLevel[name.text] == nil { topLevel[name.text] = index }
        }
    }

    private mutating func collectReferences(_ declaration: DeclarationSyntax) {
        switch declaration {
        case .event(let event):
            note(declared: event.name, context: "event \(event.name.text)")
        case .flag(let flag):
            let context = "flag \(flag.name.text)"
            note(declared: flag.name, context: context)
            if let condition = flag.condition { collect(condition, context: context) }
        case .field(let field):
            let context = "field \(field.name.text)"
            note(declared: field.name, context: context)
            for event in field.source?.events ?? [] { note(topLevel: event, context: context) }
            for item in field.cases {
                note(declared: item.name, context: context)
                if let condition = item.derivation?.condition { collect(condition, context: context) }
            }
        case .coarse(let block):
            let context = "coarse" + Self.windows(block.windows)
            for rule in block.rules {
                if let condition = rule.condition { collect(condition, context: context) }
            }
        case .lock(let lock):
            if case .condition(let condition) = lock.trigger {
                collect(condition, context: "lock" + Self.windows(lock.windows))
            }
        case .reserved: return
        }
    }

    /// ` window 1`, ` windows 2...3`, or nothing for a block of every window.
    static func windows(_ windows: WindowsSyntax?) -> String {
        guard let windows else { return "" }
        guard let upper = windows.upper else { return " window \(windows.lower.value)" }
        return " windows \(windows.lower.value)...\(upper.value)"
    }

    private mutating func collect(_ condition: ConditionSyntax, context: String) {
        switch condition {
        case .name(let name): note(topLevel: name, context: context)
        case .comparison(let field, _, let caseName):
            note(topLevel: field, context: context)
            if let index = cases[field.text]?[caseName.text] {
                occurrences.append(Occurrence(name: caseName, symbol: index, context: context))
            }
        case .eventMeasure(let event, _, _, _): note(topLevel: event, context: context)
        case .hours: return
        case .not(_, let inner), .parenthesized(let inner): collect(inner, context: context)
        case .all(let parts), .any(let parts):
            for part in parts { collect(part, context: context) }
        }
    }

    /// A declaration's own name.
    private mutating func note(declared name: Identifier, context: String) {
        guard let index = declared[name.location.offset] else { return }
        occurrences.append(Occurrence(name: name, symbol: index, context: context))
    }

    /// A flag, field or event named in a condition or a source (the first declared of that name, as the checker
    /// takes it).
    private mutating func note(topLevel name: Identifier, context: String) {
        guard let index = topLevel[name.text] else { return }
        occurrences.append(Occurrence(name: name, symbol: index, context: context))
    }

    /// The occurrence whose name covers byte `offset` (or ends at it, where a cursor stands after a word).
    func occurrence(atByte offset: Int) -> Occurrence? {
        // The occurrences are in document order: the last one starting at or before `offset`, by halves.
        var low = 0
        var high = occurrences.count
        while low < high {
            let middle = (low + high) / 2
            if occurrences[middle].name.location.offset <= offset { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let candidate = occurrences[low - 1]
        return offset <= candidate.name.location.offset + candidate.name.text.utf8.count ? candidate : nil
    }

    /// Every occurrence of symbol `index`, its declaration first, then in document order.
    func occurrences(of index: Int) -> [Occurrence] {
        let declaration = symbols[index].declaration
        let all = occurrences.filter { $0.symbol == index }
        return all.filter { $0.name == declaration } + all.filter { $0.name != declaration }
    }
}

extension SymbolIndex.Kind {
    var isTopLevel: Bool {
        if case .fieldCase = self { false } else { true }
    }
}
