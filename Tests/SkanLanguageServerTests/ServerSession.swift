import SkanCore
import SkanLanguageServer
import Testing

/// A client talking to the server in-process: messages written as JSON text, answers read back as documents.
struct ServerSession {
    var server = LanguageServer(version: "test")
    private var nextID = 1

    /// A session after `initialize` and `initialized`.
    static func initialized() -> ServerSession {
        var session = ServerSession()
        _ = session.request("initialize", #"{"capabilities": {}}"#)
        _ = session.notify("initialized", "{}")
        return session
    }

    /// Sends raw bytes as one message; every message that answers, parsed.
    mutating func send(_ text: String) -> [JSONDocument] {
        server.handle(Array(text.utf8)).map { bytes in
            var reader = JSONReader(bytes: bytes, maximumDepth: 64, tooDeep: "deep")
            return (try? reader.document()) ?? .null
        }
    }

    /// A request with the next id; its response (the last message that answers).
    mutating func request(_ method: String, _ params: String) -> JSONDocument? {
        defer { nextID += 1 }
        return send(#"{"jsonrpc": "2.0", "id": \#(nextID), "method": "\#(method)", "params": \#(params)}"#).last
    }

    /// A notification; what it causes (published diagnostics).
    mutating func notify(_ method: String, _ params: String) -> [JSONDocument] {
        send(#"{"jsonrpc": "2.0", "method": "\#(method)", "params": \#(params)}"#)
    }

    /// Opens `text` as `uri`; the diagnostics published for it.
    mutating func open(_ text: String, uri: String = "file:///schema.skan") -> [JSONDocument] {
        let params =
            #"{"textDocument": {"uri": "\#(uri)", "languageId": "skan", "version": 1, "text": \#(Self.quoted(text))}}"#
        return Self.diagnostics(in: notify("textDocument/didOpen", params))
    }

    /// The diagnostics of the one `publishDiagnostics` among `messages`.
    static func diagnostics(in messages: [JSONDocument]) -> [JSONDocument] {
        guard messages.count == 1, case .string("textDocument/publishDiagnostics")? = messages[0]["method"],
            case .array(let diagnostics)? = messages[0]["params"]?["diagnostics"]
        else { return [] }
        return diagnostics
    }

    /// `text` as a JSON string.
    static func quoted(_ text: String) -> String {
        var out: [UInt8] = []
        JSONValue.string(text).render(into: &out, indent: 0)
        return String(decoding: out, as: UTF8.self)
    }
}

extension JSONDocument {
    /// The number as an integer, when it is one.
    var integer: Int? {
        guard case .number(let number) = self, number == number.rounded() else { return nil }
        return Int(number)
    }

    /// The string, when it is one.
    var string: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }
}
