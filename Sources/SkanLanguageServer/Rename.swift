import SkanCompiler
import SkanCore

/// `textDocument/prepareRename` and `textDocument/rename` of a flag, field, case or event: every occurrence
/// `SymbolIndex` resolves, refused when the renamed document would gain an error (a name taken, a reserved
/// output column, a condition's operator), so the checker decides collisions exactly as `check` does.
struct Rename {
    /// Why a rename is refused, said to the user.
    struct Refusal: Error {
        var message: String
    }

    let features: NameFeatures

    /// The range of the name under `position` and its text, or nil where no name can be renamed.
    func prepare(at position: TextPosition) -> JSONValue {
        guard let occurrence = features.occurrence(at: position) else { return .null }
        return .object([
            ("range", features.range(of: occurrence.name)),
            ("placeholder", .string(occurrence.name.text)),
        ])
    }

    /// The edits renaming the name under `position` to `newName`: `annotated` (the client shows change
    /// annotations) marks them as needing confirmation, with what the rename means for the schema's users.
    func edits(at position: TextPosition, to newName: String, version: Int?, annotated: Bool) throws(Refusal)
        -> JSONValue
    {
        guard let occurrence = features.occurrence(at: position) else {
            throw Refusal(message: "there is no flag, field, case or event here to rename")
        }
        let symbol = features.index.symbols[occurrence.symbol]
        guard Self.isIdentifier(newName) else {
            throw Refusal(
                message: "'\(newName)' is not a name: write letters, digits and '_', starting with a letter or '_'")
        }
        guard newName != symbol.name else { return .null }
        let tokens = features.index.occurrences(of: occurrence.symbol).map(\.name)
        try checkRenamed(tokens, to: newName, symbol: symbol)
        let edits = tokens.map { token -> JSONValue in
            var members: [(String, JSONValue)] = [
                ("range", features.range(of: token)), ("newText", .string(newName)),
            ]
            if annotated { members.append(("annotationId", .string("rename"))) }
            return .object(members)
        }
        guard annotated else {
            return .object([("changes", .object([(features.uri, .array(edits))]))])
        }
        let document: JSONValue = .object([
            ("uri", .string(features.uri)), ("version", version.map { .integer($0) } ?? .null),
        ])
        return .object([
            ("documentChanges", .array([.object([("textDocument", document), ("edits", .array(edits))])])),
            (
                "changeAnnotations",
                .object([
                    (
                        "rename",
                        .object([
                            ("label", .string("Rename '\(symbol.name)' to '\(newName)'")),
                            ("needsConfirmation", .bool(true)),
                            ("description", .string(Self.consequence(of: symbol))),
                        ])
                    )
                ])
            ),
        ])
    }

    /// What renaming `symbol` changes beyond the text, for the confirmation the client shows.
    static func consequence(of symbol: SymbolIndex.Symbol) -> String {
        switch symbol.kind {
        case .event:
            "The app must log the event under the new name: an event's name is what is counted. "
                + "`skanc diff` compares by meaning; platform exports name the new event."
        case .flag, .field, .fieldCase:
            "`skanc diff` reports this as a rename; decoded tables, SQL views and the generated Swift code "
                + "use the new name, so scripts and app code that read the old one must change with it."
        }
    }

    /// Refuses when the document with `tokens` written as `newName` has an error of a kind it did not have.
    private func checkRenamed(_ tokens: [Identifier], to newName: String, symbol: SymbolIndex.Symbol) throws(Refusal) {
        var bytes = Array(features.text.utf8)
        for token in tokens.sorted(by: { $0.location.offset > $1.location.offset }) {
            let start = token.location.offset
            bytes.replaceSubrange(start..<start + token.text.utf8.count, with: Array(newName.utf8))
        }
        let renamed = String(decoding: bytes, as: UTF8.self)
        let before = Self.errorCounts(features.text, uri: features.uri)
        let after = SchemaCompiler.compile(renamed, path: features.uri).diagnostics.filter { $0.severity == .error }
        var seen: [DiagnosticCode: Int] = [:]
        for error in after {
            seen[error.code, default: 0] += 1
            if seen[error.code]! > before[error.code, default: 0] {
                throw Refusal(message: "renaming '\(symbol.name)' to '\(newName)' would give: \(error.message)")
            }
        }
    }

    private static func errorCounts(_ text: String, uri: String) -> [DiagnosticCode: Int] {
        var counts: [DiagnosticCode: Int] = [:]
        for error in SchemaCompiler.compile(text, path: uri).diagnostics where error.severity == .error {
            counts[error.code, default: 0] += 1
        }
        return counts
    }

    /// Whether `text` is one identifier as the lexer reads it (`[A-Za-z_][A-Za-z0-9_]*`).
    static func isIdentifier(_ text: String) -> Bool {
        let tokens = Lexer.tokenize(Array(text.utf8))
        return tokens.diagnostics.isEmpty && tokens.tokens.count == 2 && tokens.tokens[0].kind == .identifier
            && tokens.tokens[0].text == text
    }
}
