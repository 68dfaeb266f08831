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
    var documents: [String: (text: String, version: Int?)] = [:]
    var initialized = false
    /// Whether the client shows change annotations on workspace edits (a rename then asks for confirmation).
    var annotatesEdits = false
    var shuttingDown = false
    /// Per document, the version whose syntax errors formatting already reported: editors format on every
    /// save, and the reason is said once per version.
    var formatRefusals: [String: Int?] = [:]
    /// Per document, its names and what its declarations say, made once per version (a hover, then references,
    /// then a rename ask about the same text).
    var nameCache: [String: NameFeatures] = [:]
    /// Per document, the schema its last published diagnostics compiled (nil inside: it has errors).
    var compiled: [String: Schema?] = [:]
    /// Per document, the semantic tokens last sent and their result ID, which a delta request names.
    var sentTokens: [String: (resultId: String, data: [Int])] = [:]
    var nextResultId = 0
    /// The exit status once the client sent `exit`: 0 after `shutdown`, 1 without (as the protocol says).
    public internal(set) var exitStatus: Int32?

    private let version: String
    /// Where the language reference explains each code, linked from every diagnostic (`codeDescription`); nil
    /// when no reference was found.
    var links: ReferenceLinks?
    /// The released version documents are checked against (`skanc.against`).
    var baseline: VersionBaseline

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
            return (
                CodeActions.quickFixes(
                    documents[uri]!.text, uri: uri, lines: start...end, links: links,
                    against: baseline.baseline(for: uri).schema), []
            )
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

    var capabilities: JSONValue {
        .object([
            ("capabilities", .object(RequestMethod.capabilities)),
            ("serverInfo", .object([("name", .string("skanc")), ("version", .string(version))])),
        ])
    }
}
