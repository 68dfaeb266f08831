import SkanCore

/// The requests the server answers, each with the capability that announces it, declared once: the
/// capabilities `initialize` returns are derived from this list and the server's dispatch switches over it
/// exhaustively, so the server can neither announce a method it does not handle nor handle one it hides.
enum RequestMethod: String, CaseIterable {
    case initialize
    case shutdown
    case formatting = "textDocument/formatting"
    case documentSymbol = "textDocument/documentSymbol"
    case hover = "textDocument/hover"
    case definition = "textDocument/definition"
    case references = "textDocument/references"
    case documentHighlight = "textDocument/documentHighlight"
    case foldingRange = "textDocument/foldingRange"
    case inlayHint = "textDocument/inlayHint"
    case codeLens = "textDocument/codeLens"
    case semanticTokens = "textDocument/semanticTokens/full"
    case semanticTokensDelta = "textDocument/semanticTokens/full/delta"
    case completion = "textDocument/completion"
    case codeAction = "textDocument/codeAction"
    case prepareRename = "textDocument/prepareRename"
    case rename = "textDocument/rename"

    /// The server capability that announces the method (`hoverProvider: true`); nil for the lifecycle, and for
    /// a method another one's capability announces (the delta of semantic tokens, prepare of rename).
    var capability: (key: String, value: JSONValue)? {
        switch self {
        case .initialize, .shutdown, .semanticTokensDelta, .prepareRename: nil
        case .formatting: ("documentFormattingProvider", .bool(true))
        case .documentSymbol: ("documentSymbolProvider", .bool(true))
        case .hover: ("hoverProvider", .bool(true))
        case .definition: ("definitionProvider", .bool(true))
        case .references: ("referencesProvider", .bool(true))
        case .documentHighlight: ("documentHighlightProvider", .bool(true))
        case .foldingRange: ("foldingRangeProvider", .bool(true))
        case .inlayHint: ("inlayHintProvider", .bool(true))
        case .codeLens: ("codeLensProvider", .object([("resolveProvider", .bool(false))]))
        case .semanticTokens:
            (
                "semanticTokensProvider",
                .object([("legend", SemanticTokens.legend), ("full", .object([("delta", .bool(true))]))])
            )
        case .completion: ("completionProvider", .object([("triggerCharacters", .array([.string(".")]))]))
        case .codeAction: ("codeActionProvider", .object([("codeActionKinds", .array([.string("quickfix")]))]))
        case .rename: ("renameProvider", .object([("prepareProvider", .bool(true))]))
        }
    }

    /// The capabilities `initialize` answers with: full document sync, then each method's, in declaration order.
    static var capabilities: [(String, JSONValue)] {
        [("textDocumentSync", .object([("openClose", .bool(true)), ("change", .integer(1))]))]
            + allCases.compactMap(\.capability).map { ($0.key, $0.value) }
    }
}
