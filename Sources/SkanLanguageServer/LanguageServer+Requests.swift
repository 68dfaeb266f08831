import SkanCore
import SkanSchema
import SkanSchemaTools

/// What requests share: the open document a request names, its names and position, formatting's edits, and the
/// semantic tokens last sent.
extension LanguageServer {
    /// Keeps `data` as the tokens last sent for `uri`; returns their new result ID.
    mutating func remember(_ data: [Int], for uri: String) -> String {
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

    func documentURI(_ params: JSONDocument?, id: JSONValue) throws(RPCFailure) -> String {
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
    mutating func names(_ params: JSONDocument?, id: JSONValue) throws(RPCFailure) -> NameFeatures {
        let uri = try documentURI(params, id: id)
        if let cached = nameCache[uri] { return cached }
        let features = NameFeatures(text: documents[uri]!.text, uri: uri, compiled: compiled[uri])
        nameCache[uri] = features
        return features
    }

    func position(_ params: JSONDocument?, id: JSONValue) throws(RPCFailure) -> TextPosition {
        guard let position = Self.position(params?["position"]) else {
            throw RPCFailure(id: id, code: .invalidParams, message: "params.position needs line and character")
        }
        return position
    }

    /// `skanc fmt` as edits: none when the document is formatted, else one replacing it whole; nil when the
    /// document has syntax errors.
    func formatting(_ uri: String) -> JSONValue? {
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
}
