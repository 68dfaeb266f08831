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

    init(text: String, uri: String) {
        self.text = text
        self.uri = uri
        lines = LineTable(text)
        index = SymbolIndex(text)
        layout = DeclaredLayout(text: text, uri: uri)
    }

    /// The occurrence under a protocol position.
    func occurrence(at position: TextPosition) -> SymbolIndex.Occurrence? {
        index.occurrence(atByte: lines.offset(of: position))
    }

    func range(of token: Identifier) -> JSONValue {
        let start = lines.position(line: token.location.line, column: token.location.column)
        let end = lines.position(line: token.location.line, column: token.location.column + token.text.utf8.count)
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

    /// `textDocument/documentSymbol`: events, flags and fields, each field's cases inside it.
    func documentSymbols() -> JSONValue {
        let symbols = index.symbols
        return .array(
            symbols.indices.compactMap { position in
                let symbol = symbols[position]
                let children: [JSONValue]
                switch symbol.kind {
                case .fieldCase: return nil
                case .field:
                    children = symbols.filter { $0.kind == .fieldCase(field: symbol.name) }.map { member in
                        documentSymbol(member, kind: 22, detail: caseDetail(member), children: [])
                    }
                case .event, .flag: children = []
                }
                let kind = symbol.kind == .event ? 24 : 8
                return documentSymbol(symbol, kind: kind, detail: detail(symbol), children: children)
            })
    }

    private func documentSymbol(
        _ symbol: SymbolIndex.Symbol, kind: Int, detail: String?, children: [JSONValue]
    ) -> JSONValue {
        var members: [(String, JSONValue)] = [("name", .string(symbol.name))]
        if let detail { members.append(("detail", .string(detail))) }
        members += [
            ("kind", .integer(kind)), ("range", range(of: symbol.declaration)),
            ("selectionRange", range(of: symbol.declaration)),
        ]
        if !children.isEmpty { members.append(("children", .array(children))) }
        return .object(members)
    }

    /// `textDocument/hover`: what the name is (bits, codes, fine value, currency) and which declarations read it.
    func hover(at position: TextPosition) -> JSONValue {
        guard let occurrence = occurrence(at: position) else { return .null }
        let symbol = index.symbols[occurrence.symbol]
        // Paragraphs: what it is, its cases as one list, who reads it.
        var paragraphs = ["**\(symbol.name)**: " + (detail(symbol) ?? kindName(symbol.kind))]
        if case .field = symbol.kind, let field = layout.fields[symbol.name] {
            paragraphs.append(
                field.cases.map {
                    "- `\($0.name)` = \($0.code) → fine value +\($0.code << field.bits.lower)"
                }.joined(separator: "\n"))
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
