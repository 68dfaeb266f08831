import SkanCompiler
import SkanCore
import SkanSchema

/// Hover, go to definition, references and document symbols over a document's names (`SymbolIndex`), with
/// what the declarations say (`DeclaredLayout`: bits, codes, what each adds to the fine value, currencies).
struct NameFeatures {
    let text: String
    let uri: String
    let lines: LineTable
    let index: SymbolIndex
    let layout: DeclaredLayout
    let meaning: DeclaredMeaning
    /// The declarations as written, for the outline.
    let syntax: SchemaSyntax
    let extents: DeclarationExtents

    /// `compiled`: the schema the text compiles to, when the diagnostics already made it.
    init(text: String, uri: String, compiled: Schema?? = nil) {
        self.text = text
        self.uri = uri
        lines = LineTable(text)
        // Parsed once for the names and what the declarations mean.
        let bytes = Array(text.utf8)
        let syntax = Parser.parse(bytes).syntax
        self.syntax = syntax
        extents = DeclarationExtents(syntax, tokens: Lexer.tokenize(bytes).tokens, bytes: bytes)
        index = SymbolIndex(syntax)
        meaning = DeclaredMeaning(syntax)
        layout = DeclaredLayout(text: text, uri: uri, compiled: compiled)
    }

    /// The occurrence under a protocol position.
    func occurrence(at position: TextPosition) -> SymbolIndex.Occurrence? {
        index.occurrence(atByte: lines.offset(of: position))
    }

    func range(of token: Identifier) -> JSONValue {
        range(at: token.location, length: token.text.utf8.count)
    }

    /// The protocol range of `length` bytes from `location` on one line.
    func range(at location: SourceLocation, length: Int) -> JSONValue {
        let start = lines.position(line: location.line, column: location.column)
        let end = lines.position(line: location.line, column: location.column + length)
        return DocumentDiagnostics.rangeJSON((start, end))
    }

    func location(of token: Identifier) -> JSONValue {
        .object([("uri", .string(uri)), ("range", range(of: token))])
    }

    /// `textDocument/definition`: the declaration of the name under the position, or null.
    func definition(at position: TextPosition) -> JSONValue {
        guard let occurrence = occurrence(at: position) else { return .null }
        return location(of: index.symbols[occurrence.symbol].declaration)
    }

    /// `textDocument/references`: every place the name is written, its declaration only when asked.
    func references(at position: TextPosition, includeDeclaration: Bool) -> JSONValue {
        guard let occurrence = occurrence(at: position) else { return .array([]) }
        let declaration = index.symbols[occurrence.symbol].declaration
        return .array(
            index.occurrences(of: occurrence.symbol)
                .filter { includeDeclaration || $0.name != declaration }
                .map { location(of: $0.name) })
    }

    /// `textDocument/documentHighlight`: every place the name under the position is written, its declaration as
    /// a write (kind 3), the others as reads (kind 2).
    func highlights(at position: TextPosition) -> JSONValue {
        guard let occurrence = occurrence(at: position) else { return .array([]) }
        let declaration = index.symbols[occurrence.symbol].declaration
        return .array(
            index.occurrences(of: occurrence.symbol).map {
                .object([("range", range(of: $0.name)), ("kind", .integer($0.name == declaration ? 3 : 2))])
            })
    }

    /// `textDocument/foldingRange`: every declaration written over more than one line (a field's cases, a
    /// coarse block), and each run of two or more comment lines.
    func foldingRanges() -> JSONValue {
        var ranges: [(start: Int, end: Int, kind: String?)] = []
        for extent in extents.byKeyword.values where extent.endLine > extent.start.line {
            ranges.append((extent.start.line - 1, extent.endLine - 1, nil))
        }
        var run: (start: Int, end: Int)?
        for (number, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            if line.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("#") {
                run = (run?.start ?? number, number)
            } else {
                if let comments = run, comments.end > comments.start {
                    ranges.append((comments.start, comments.end, "comment"))
                }
                run = nil
            }
        }
        if let comments = run, comments.end > comments.start {
            ranges.append((comments.start, comments.end, "comment"))
        }
        return .array(
            ranges.sorted { $0.start < $1.start }.map { range in
                var members: [(String, JSONValue)] = [
                    ("startLine", .integer(range.start)), ("endLine", .integer(range.end)),
                ]
                if let kind = range.kind { members.append(("kind", .string(kind))) }
                return .object(members)
            })
    }

    /// `textDocument/documentSymbol`: every declaration in document order, each over its whole extent: events,
    /// flags and fields (each field's cases inside it), and the coarse and lock blocks (`coarse window 1`).
    func documentSymbols() -> JSONValue {
        let symbols = index.symbols
        var outline: [JSONValue] = []
        for declaration in syntax.declarations {
            let keyword = DeclarationExtents.keyword(declaration)
            switch declaration {
            case .event(let event): outline.append(named(event.name, keyword: keyword, kind: 24))
            case .flag(let flag): outline.append(named(flag.name, keyword: keyword, kind: 8))
            case .field(let field):
                let children = symbols.filter { $0.kind == .fieldCase(field: field.name.text) }.map { member in
                    documentSymbol(
                        member.name, kind: 22, detail: caseDetail(member), range: range(of: member.declaration),
                        selection: range(of: member.declaration), children: [])
                }
                outline.append(named(field.name, keyword: keyword, kind: 8, children: children))
            case .coarse(let block):
                outline.append(blockSymbol("coarse" + SymbolIndex.windows(block.windows), keyword: keyword, kind: 3))
            case .lock(let lock):
                outline.append(blockSymbol("lock" + SymbolIndex.windows(lock.windows), keyword: keyword, kind: 12))
            case .reserved: continue
            }
        }
        return .array(outline)
    }

    /// An event, flag or field: its whole declaration, its name selected.
    private func named(_ name: Identifier, keyword: SourceLocation, kind: Int, children: [JSONValue] = []) -> JSONValue
    {
        let symbol = index.symbols.first { $0.declaration == name }
        return documentSymbol(
            name.text, kind: kind, detail: symbol.flatMap { detail($0) }, range: extent(keyword) ?? range(of: name),
            selection: range(of: name), children: children)
    }

    /// A coarse or lock block: its whole declaration, its keyword selected.
    private func blockSymbol(_ name: String, keyword: SourceLocation, kind: Int) -> JSONValue {
        let selection = range(at: keyword, length: name.hasPrefix("lock") ? 4 : 6)
        return documentSymbol(
            name, kind: kind, detail: nil, range: extent(keyword) ?? selection, selection: selection, children: [])
    }

    /// The protocol range of the declaration whose keyword stands at `keyword`.
    private func extent(_ keyword: SourceLocation) -> JSONValue? {
        guard let extent = extents.byKeyword[keyword.offset] else { return nil }
        let start = lines.position(line: extent.start.line, column: extent.start.column)
        let end = lines.position(line: extent.endLine, column: extent.endColumn)
        return DocumentDiagnostics.rangeJSON((start, end))
    }

    private func documentSymbol(
        _ name: String, kind: Int, detail: String?, range: JSONValue, selection: JSONValue, children: [JSONValue]
    ) -> JSONValue {
        var members: [(String, JSONValue)] = [("name", .string(name))]
        if let detail { members.append(("detail", .string(detail))) }
        members += [("kind", .integer(kind)), ("range", range), ("selectionRange", selection)]
        if !children.isEmpty { members.append(("children", .array(children))) }
        return .object(members)
    }

    /// `textDocument/hover`: what the name is (bits, codes, fine value, currency) and which declarations read it.
    func hover(at position: TextPosition) -> JSONValue {
        guard let occurrence = occurrence(at: position) else { return .null }
        let symbol = index.symbols[occurrence.symbol]
        // Paragraphs: what it is, its cases as one list, who reads it.
        var paragraphs = ["**\(symbol.name)**: " + (detail(symbol) ?? kindName(symbol.kind))]
        switch symbol.kind {
        case .field:
            if let source = meaning.sources[symbol.name] { paragraphs.append("Measures `\(source)`") }
            if let field = layout.fields[symbol.name] {
                paragraphs.append(
                    field.cases.map {
                        "- `\($0.name)` = \($0.code) → fine value +\($0.code << field.bits.lower)"
                            + meaning.suffix(field: symbol.name, case: $0.name)
                    }.joined(separator: "\n"))
            }
        case .flag:
            if let condition = meaning.flagConditions[symbol.name] { paragraphs.append("Set when `\(condition)`") }
        case .fieldCase(let field):
            let suffix = meaning.suffix(field: field, case: symbol.name)
            if !suffix.isEmpty { paragraphs.append(String(suffix.dropFirst(2))) }
        case .event: break
        }
        let readers = orderedUnique(
            index.occurrences(of: occurrence.symbol).map(\.context).filter {
                !$0.isEmpty && !isOwnDeclaration($0, symbol)
            })
        if !readers.isEmpty { paragraphs.append("Read by: " + readers.map { "`\($0)`" }.joined(separator: ", ")) }
        return .object([
            (
                "contents",
                .object([("kind", .string("markdown")), ("value", .string(paragraphs.joined(separator: "\n\n")))])
            ),
            ("range", range(of: occurrence.name)),
        ])
    }

    private func isOwnDeclaration(_ context: String, _ symbol: SymbolIndex.Symbol) -> Bool {
        switch symbol.kind {
        case .event: context == "event \(symbol.name)"
        case .flag: context == "flag \(symbol.name)"
        case .field: context == "field \(symbol.name)"
        case .fieldCase(let field): context == "field \(field)"
        }
    }

    private func kindName(_ kind: SymbolIndex.Kind) -> String {
        switch kind {
        case .event: "event"
        case .flag: "flag"
        case .field: "field"
        case .fieldCase(let field): "case of \(field)"
        }
    }

    /// `flag, bit 0: set → fine value +1`, `field, bits 1...2`, `event, amounts in USD`.
    private func detail(_ symbol: SymbolIndex.Symbol) -> String? {
        switch symbol.kind {
        case .event:
            guard let currency = layout.events[symbol.name] else { return nil }
            return currency.map { "event, amounts in \($0)" } ?? "event, no amount"
        case .flag:
            guard let field = layout.fields[symbol.name] else { return nil }
            return "flag, \(field.bits): set → fine value +\(1 << field.bits.lower)"
        case .field:
            guard let field = layout.fields[symbol.name] else { return nil }
            return "field, \(field.bits)" + (field.description.map { " (\"\($0)\")" } ?? "")
        case .fieldCase: return caseDetail(symbol)
        }
    }

    /// `case of stage, code 4 in bits 0...2 → fine value +4`.
    private func caseDetail(_ symbol: SymbolIndex.Symbol) -> String? {
        guard case .fieldCase(let name) = symbol.kind, let field = layout.fields[name],
            let fieldCase = field.caseNamed(symbol.name)
        else { return nil }
        return
            "case of \(name), code \(fieldCase.code) in \(field.bits) → fine value +\(fieldCase.code << field.bits.lower)"
    }

    private func orderedUnique(_ texts: [String]) -> [String] {
        var seen: Set<String> = []
        return texts.filter { seen.insert($0).inserted }
    }
}
