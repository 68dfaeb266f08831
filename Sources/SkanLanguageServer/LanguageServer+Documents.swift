import SkanCore
import SkanSchema
import SkanSchemaTools

/// The notifications that open, change and close documents, what answers them (published diagnostics), and
/// reading positions and changes from their parameters.
extension LanguageServer {
    mutating func notify(_ method: String, _ params: JSONDocument?) -> [JSONValue] {
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

    /// The document's diagnostics (with the version check against `skanc.against`'s baseline), and the first time
    /// a baseline cannot be used, why.
    mutating func publish(_ uri: String) -> [JSONValue] {
        let document = documents[uri]!
        let (old, problem) = baseline.baseline(for: uri)
        let checked = DocumentDiagnostics.checked(document.text, uri: uri, links: links, against: old)
        compiled[uri] = .some(checked.schema)
        return [publishDiagnostics(uri: uri, version: document.version, diagnostics: checked.diagnostics)]
            + (problem.map { [showMessage($0)] } ?? [])
    }

    func publishDiagnostics(uri: String, version: Int?, diagnostics: [JSONValue]) -> JSONValue {
        var params: [(String, JSONValue)] = [("uri", .string(uri))]
        if let version { params.append(("version", .integer(version))) }
        params.append(("diagnostics", .array(diagnostics)))
        return .object([
            ("jsonrpc", .string("2.0")), ("method", .string("textDocument/publishDiagnostics")),
            ("params", .object(params)),
        ])
    }

    /// `window/showMessage` of a warning: what the user should see once.
    func showMessage(_ message: String) -> JSONValue {
        .object([
            ("jsonrpc", .string("2.0")), ("method", .string("window/showMessage")),
            ("params", .object([("type", .integer(2)), ("message", .string(message))])),
        ])
    }

    func logMessage(_ message: String) -> JSONValue {
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

    static func position(_ value: JSONDocument?) -> TextPosition? {
        guard let line = integer(value?["line"]), let character = integer(value?["character"]) else { return nil }
        return TextPosition(line: line, character: character)
    }

    static func integer(_ value: JSONDocument?) -> Int? {
        guard case .number(let number)? = value, number == number.rounded(), abs(number) < 1e15 else { return nil }
        return Int(number)
    }
}
