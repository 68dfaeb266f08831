import SkanCore
import SkanSchema
import SkanSchemaTools

/// The language server for `.skan` documents, as a value: each message in, the messages out. No input or
/// output of its own, so tests drive it in-process and `skanc lsp` is a loop of reads and writes around it.
///
/// Serves LSP 3.17 with full document sync: diagnostics (`check` and `lint`) published on open and on every
/// change, formatting (`skanc fmt`), quick fixes for "did you mean", completion, semantic tokens, folding, and on
/// flags, fields, cases and events hover, go to definition, references, highlights, document symbols and rename
/// (`RequestMethod` lists them with their capabilities). Requests before `initialize`
/// fail with `ServerNotInitialized`, after `shutdown` with `InvalidRequest`; an unknown request is
/// `MethodNotFound`, an unknown notification ignored.
public struct LanguageServer: Sendable {
    /// The documents open in the client, by URI.
    private var documents: [String: (text: String, version: Int?)] = [:]
    private var initialized = false
    /// Whether the client shows change annotations on workspace edits (a rename then asks for confirmation).
    private var annotatesEdits = false
    private var shuttingDown = false
    /// Per document, the version whose syntax errors formatting already reported: editors format on every
    /// save, and the reason is said once per version.
    private var formatRefusals: [String: Int?] = [:]
    /// Per document, its names and what its declarations say, made once per version (a hover, then references,
    /// then a rename ask about the same text).
    private var nameCache: [String: NameFeatures] = [:]
    /// Per document, the schema its last published diagnostics compiled (nil inside: it has errors).
    private var compiled: [String: Schema?] = [:]
    /// Per document, the semantic tokens last sent and their result ID, which a delta request names.
    private var sentTokens: [String: (resultId: String, data: [Int])] = [:]
    private var nextResultId = 0
    /// The exit status once the client sent `exit`: 0 after `shutdown`, 1 without (as the protocol says).
    public private(set) var exitStatus: Int32?

    private let version: String
    /// Where the language reference explains each code, linked from every diagnostic (`codeDescription`); nil
    /// when no reference was found.
    private var links: ReferenceLinks?
    /// The released version documents are checked against (`skanc.against`).
    private var baseline: VersionBaseline

    /// A server that reports itself as skanc `version` and links diagnostics to the language reference at
    /// `languageReference` (a path; a client may name another in `initializationOptions.languageReference`).
    /// `baselines` reads what the `skanc.against` setting names (`initializationOptions.against`, or
    /// `workspace/didChangeConfiguration`'s `settings.skanc.against`); without it the setting is not read.
    public init(version: String, languageReference: String? = nil, baselines: BaselineReader? = nil) {
        self.version = version
        links = languageReference.flatMap(ReferenceLinks.init(path:))
        baseline = VersionBaseline(reader: baselines)
    }

    /// The messages (responses and notifications) that answer the message `body`, each a JSON text.
    public mutating func handle(_ body: [UInt8]) -> [[UInt8]] {
        let outgoing: [JSONValue]
        switch RPCMessage.parse(body) {
        case .failure(let failure): outgoing = [failure.response]
        case .success(.response): outgoing = []
        case .success(.notification(let method, let params)): outgoing = notify(method, params)
        case .success(.request(let id, let method, let params)):
            do {
                let (result, then) = try request(method, params, id: id)
                outgoing = [.object([("jsonrpc", .string("2.0")), ("id", id), ("result", result)])] + then
            } catch {
                outgoing = [error.response]
            }
        }
        return outgoing.map { Array($0.rendered().utf8) }
    }

    private mutating func request(
        _ method: String, _ params: JSONDocument?, id: JSONValue
    ) throws(RPCFailure) -> (JSONValue, [JSONValue]) {
        if shuttingDown {
            throw RPCFailure(id: id, code: .invalidRequest, message: "the server is shutting down; send exit")
        }
        guard initialized || method == RequestMethod.initialize.rawValue else {
            throw RPCFailure(id: id, code: .serverNotInitialized, message: "send initialize first")
        }
        guard let request = RequestMethod(rawValue: method) else {
            throw RPCFailure(id: id, code: .methodNotFound, message: "'\(method)' is not served by skanc lsp")
        }
        switch request {
        case .initialize:
            guard !initialized else {
                throw RPCFailure(id: id, code: .invalidRequest, message: "initialize was sent already")
            }
            initialized = true
            if case .string(let path)? = params?["initializationOptions"]?["languageReference"] {
                links = ReferenceLinks(path: path) ?? links
            }
            if case .string(let against)? = params?["initializationOptions"]?["against"] {
                _ = baseline.configure(against)
            }
            let edits = params?["capabilities"]?["workspace"]?["workspaceEdit"]
            if case .bool(true)? = edits?["documentChanges"], edits?["changeAnnotationSupport"] != nil {
                annotatesEdits = true
            }
            return (capabilities, [])
        case .shutdown:
            shuttingDown = true
            return (.null, [])
        case .formatting:
            let uri = try documentURI(params, id: id)
            guard let edits = formatting(uri) else {
                // No edits (a format-on-save must not fail), and the reason once for this version.
                let version = documents[uri]!.version
                guard formatRefusals[uri] != .some(version) else { return (.array([]), []) }
                formatRefusals[uri] = .some(version)
                return (
                    .array([]),
                    [
                        showMessage(
                            "skanc: \(uri) has syntax errors, so it is not formatted; fix them (see its diagnostics) and "
                                + "format again")
                    ]
                )
            }
            return (edits, [])
        case .documentSymbol:
            return (try names(params, id: id).documentSymbols(), [])
        case .hover:
            return (try names(params, id: id).hover(at: try position(params, id: id)), [])
        case .definition:
            return (try names(params, id: id).definition(at: try position(params, id: id)), [])
        case .references:
            let includeDeclaration: Bool
            if case .bool(let include)? = params?["context"]?["includeDeclaration"] {
                includeDeclaration = include
            } else {
                includeDeclaration = true
            }
            let at = try position(params, id: id)
            return (try names(params, id: id).references(at: at, includeDeclaration: includeDeclaration), [])
        case .documentHighlight:
            return (try names(params, id: id).highlights(at: try position(params, id: id)), [])
        case .foldingRange:
            return (try names(params, id: id).foldingRanges(), [])
        case .inlayHint:
            guard let start = Self.integer(params?["range"]?["start"]?["line"]),
                let end = Self.integer(params?["range"]?["end"]?["line"]), start <= end
            else { throw RPCFailure(id: id, code: .invalidParams, message: "params.range needs start and end lines") }
            return (InlayHints(names: try names(params, id: id)).hints(lines: start...end), [])
        case .codeLens:
            let uri = try documentURI(params, id: id)
            let schema = compiled[uri] ?? DocumentDiagnostics.findings(documents[uri]!.text, uri: uri).schema
            return (CodeLenses(names: try names(params, id: id), schema: schema).lenses, [])
        case .semanticTokens:
            let uri = try documentURI(params, id: id)
            let data = SemanticTokens(text: documents[uri]!.text, names: try names(params, id: id)).data
            return (
                .object([
                    ("resultId", .string(remember(data, for: uri))), ("data", .array(data.map(JSONValue.integer))),
                ]), []
            )
        case .semanticTokensDelta:
            let uri = try documentURI(params, id: id)
            let data = SemanticTokens(text: documents[uri]!.text, names: try names(params, id: id)).data
            let previous = sentTokens[uri]
            let resultId = remember(data, for: uri)
            guard case .string(let asked)? = params?["previousResultId"], let previous, previous.resultId == asked
            else {
                // Tokens the server no longer holds: the whole list, as the protocol allows.
                return (.object([("resultId", .string(resultId)), ("data", .array(data.map(JSONValue.integer)))]), [])
            }
            return (
                .object([("resultId", .string(resultId)), ("edits", .array(Self.edits(from: previous.data, to: data)))]
                ), []
            )
        case .completion:
            let uri = try documentURI(params, id: id)
            let text = documents[uri]!.text
            let names = try names(params, id: id)
            let items = Completion(text: text, index: names.index).items(
                atByte: names.lines.offset(of: try position(params, id: id)))
            return (.array(items.map(\.json)), [])
        case .codeAction:
            let uri = try documentURI(params, id: id)
            guard let start = Self.integer(params?["range"]?["start"]?["line"]),
                let end = Self.integer(params?["range"]?["end"]?["line"]), start <= end
            else { throw RPCFailure(id: id, code: .invalidParams, message: "params.range needs start and end lines") }
            return (CodeActions.quickFixes(documents[uri]!.text, uri: uri, lines: start...end, links: links), [])
        case .prepareRename:
            return (Rename(features: try names(params, id: id)).prepare(at: try position(params, id: id)), [])
        case .rename:
            guard case .string(let newName)? = params?["newName"] else {
                throw RPCFailure(id: id, code: .invalidParams, message: "params.newName is missing")
            }
            let rename = Rename(features: try names(params, id: id))
            let version = documents[rename.features.uri]?.version
            let at = try position(params, id: id)
            do throws(Rename.Refusal) {
                return (try rename.edits(at: at, to: newName, version: version, annotated: annotatesEdits), [])
            } catch {
                throw RPCFailure(id: id, code: .requestFailed, message: error.message)
            }
        }
    }

    private mutating func notify(_ method: String, _ params: JSONDocument?) -> [JSONValue] {
        if method == "exit" {
            exitStatus = shuttingDown ? 0 : 1
            return []
        }
        guard initialized, !shuttingDown else { return [] }
        switch method {
        case "textDocument/didOpen":
            guard let document = params?["textDocument"], case .string(let uri)? = document["uri"],
                case .string(let text)? = document["text"]
            else { return [logMessage("didOpen without textDocument.uri and text")] }
            documents[uri] = (text, Self.integer(document["version"]))
            nameCache[uri] = nil
            baseline.forget(uri)
            return publish(uri)
        case "workspace/didChangeConfiguration":
            // `{"settings": {"skanc": {"against": "..."}}}`; a missing value turns the check off.
            guard case .object? = params?["settings"] else { return [] }
            var against: String? = nil
            if case .string(let value)? = params?["settings"]?["skanc"]?["against"] { against = value }
            guard baseline.configure(against) else { return [] }
            return documents.keys.sorted().flatMap { publish($0) }
        case "textDocument/didChange":
            guard let document = params?["textDocument"], case .string(let uri)? = document["uri"],
                let open = documents[uri], case .array(let changes)? = params?["contentChanges"]
            else { return [logMessage("didChange for a document that is not open, or without contentChanges")] }
            var text = open.text
            for change in changes {
                guard case .string(let newText)? = change["text"] else { continue }
                guard let changed = Self.applying(newText, in: change["range"], to: text) else {
                    // Applying a change whose place is unknown could only guess; the document stays as it was.
                    return [
                        logMessage(
                            "didChange for \(uri) has a range without whole start and end positions (or the end before "
                                + "the start); the change was not applied: reopen the document")
                    ]
                }
                text = changed
            }
            documents[uri] = (text, Self.integer(document["version"]))
            nameCache[uri] = nil
            return publish(uri)
        case "textDocument/didClose":
            guard case .string(let uri)? = params?["textDocument"]?["uri"] else { return [] }
            documents[uri] = nil
            nameCache[uri] = nil
            formatRefusals[uri] = nil
            sentTokens[uri] = nil
            compiled[uri] = nil
            baseline.forget(uri)
            return [publishDiagnostics(uri: uri, version: nil, diagnostics: [])]
        default:
            return []
        }
    }

    private var capabilities: JSONValue {
        .object([
            ("capabilities", .object(RequestMethod.capabilities)),
            ("serverInfo", .object([("name", .string("skanc")), ("version", .string(version))])),
        ])
    }

    /// Keeps `data` as the tokens last sent for `uri`; returns their new result ID.
    private mutating func remember(_ data: [Int], for uri: String) -> String {
        nextResultId += 1
        let resultId = String(nextResultId)
        sentTokens[uri] = (resultId, data)
        return resultId
    }

    /// One edit turning `old` into `new`: what lies between their common start and their common end.
    static func edits(from old: [Int], to new: [Int]) -> [JSONValue] {
        var start = 0
        while start < old.count, start < new.count, old[start] == new[start] { start += 1 }
        var oldEnd = old.count
        var newEnd = new.count
        while oldEnd > start, newEnd > start, old[oldEnd - 1] == new[newEnd - 1] {
            oldEnd -= 1
            newEnd -= 1
        }
        guard start < oldEnd || start < newEnd else { return [] }
        return [
            .object([
                ("start", .integer(start)), ("deleteCount", .integer(oldEnd - start)),
                ("data", .array(new[start..<newEnd].map(JSONValue.integer))),
            ])
        ]
    }

    private func documentURI(_ params: JSONDocument?, id: JSONValue) throws(RPCFailure) -> String {
        guard case .string(let uri)? = params?["textDocument"]?["uri"] else {
            throw RPCFailure(id: id, code: .invalidParams, message: "params.textDocument.uri is missing")
        }
        guard documents[uri] != nil else {
            throw RPCFailure(
                id: id, code: .invalidParams, message: "\(uri) is not open; send textDocument/didOpen first")
        }
        return uri
    }

    /// The names of the open document `params` names.
    private mutating func names(_ params: JSONDocument?, id: JSONValue) throws(RPCFailure) -> NameFeatures {
        let uri = try documentURI(params, id: id)
        if let cached = nameCache[uri] { return cached }
        let features = NameFeatures(text: documents[uri]!.text, uri: uri, compiled: compiled[uri])
        nameCache[uri] = features
        return features
    }

    private func position(_ params: JSONDocument?, id: JSONValue) throws(RPCFailure) -> TextPosition {
        guard let position = Self.position(params?["position"]) else {
            throw RPCFailure(id: id, code: .invalidParams, message: "params.position needs line and character")
        }
        return position
    }

    /// `skanc fmt` as edits: none when the document is formatted, else one replacing it whole; nil when the
    /// document has syntax errors.
    private func formatting(_ uri: String) -> JSONValue? {
        let text = documents[uri]!.text
        guard var formatted = SchemaFormatter.format(text) else { return nil }
        // The document keeps its line ending: one written with CR LF or CR gets it back (the formatter writes LF).
        let bytes = Array(text.utf8)
        if let first = bytes.indices.first(where: { LineBreak.isLineEnd(bytes[$0]) }), bytes[first] == 13 {
            let ending = first + 1 < bytes.count && bytes[first + 1] == 10 ? "\r\n" : "\r"
            formatted = formatted.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: ending)
        }
        guard formatted != text else { return .array([]) }
        let lines = LineTable(text)
        let end = lines.position(line: lines.lineCount, column: Int.max)
        let range = DocumentDiagnostics.rangeJSON((TextPosition(line: 0, character: 0), end))
        return .array([.object([("range", range), ("newText", .string(formatted))])])
    }

    /// The document's diagnostics (with the version check against `skanc.against`'s baseline), and the first time
    /// a baseline cannot be used, why.
    private mutating func publish(_ uri: String) -> [JSONValue] {
        let document = documents[uri]!
        let (old, problem) = baseline.baseline(for: uri)
        let checked = DocumentDiagnostics.checked(document.text, uri: uri, links: links, against: old)
        compiled[uri] = .some(checked.schema)
        return [publishDiagnostics(uri: uri, version: document.version, diagnostics: checked.diagnostics)]
            + (problem.map { [showMessage($0)] } ?? [])
    }

    private func publishDiagnostics(uri: String, version: Int?, diagnostics: [JSONValue]) -> JSONValue {
        var params: [(String, JSONValue)] = [("uri", .string(uri))]
        if let version { params.append(("version", .integer(version))) }
        params.append(("diagnostics", .array(diagnostics)))
        return .object([
            ("jsonrpc", .string("2.0")), ("method", .string("textDocument/publishDiagnostics")),
            ("params", .object(params)),
        ])
    }

    /// `window/showMessage` of a warning: what the user should see once.
    private func showMessage(_ message: String) -> JSONValue {
        .object([
            ("jsonrpc", .string("2.0")), ("method", .string("window/showMessage")),
            ("params", .object([("type", .integer(2)), ("message", .string(message))])),
        ])
    }

    private func logMessage(_ message: String) -> JSONValue {
        .object([
            ("jsonrpc", .string("2.0")), ("method", .string("window/logMessage")),
            ("params", .object([("type", .integer(1)), ("message", .string(message))])),
        ])
    }

    /// `text` with `newText` in place of `range` (a protocol range), or in place of everything without one
    /// (full sync); nil for a range that is not one: no whole start and end, negative numbers, the end first.
    static func applying(_ newText: String, in range: JSONDocument?, to text: String) -> String? {
        guard let range else { return newText }
        if case .null = range { return newText }
        guard let start = position(range["start"]), let end = position(range["end"]),
            min(start.line, start.character, end.line, end.character) >= 0,
            (start.line, start.character) <= (end.line, end.character)
        else { return nil }
        let lines = LineTable(text)
        let bytes = Array(text.utf8)
        let from = lines.offset(of: start)
        let to = max(from, lines.offset(of: end))
        return String(decoding: bytes[..<from] + Array(newText.utf8) + bytes[to...], as: UTF8.self)
    }

    private static func position(_ value: JSONDocument?) -> TextPosition? {
        guard let line = integer(value?["line"]), let character = integer(value?["character"]) else { return nil }
        return TextPosition(line: line, character: character)
    }

    private static func integer(_ value: JSONDocument?) -> Int? {
        guard case .number(let number)? = value, number == number.rounded(), abs(number) < 1e15 else { return nil }
        return Int(number)
    }
}
