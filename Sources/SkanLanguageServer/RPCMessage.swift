package import SkanCore

/// One JSON-RPC 2.0 message as the server reads it: a request (with an id, answered), a notification (no id,
/// never answered), or something else (a client's response, which this server never asks for).
package enum RPCMessage {
    case request(id: JSONValue, method: String, params: JSONDocument?)
    case notification(method: String, params: JSONDocument?)
    case response

    /// The message in `body`, or the error to answer (with the id, when one could be read).
    package static func parse(_ body: [UInt8]) -> Result<RPCMessage, RPCFailure> {
        var reader = JSONReader(bytes: body, maximumDepth: 64, tooDeep: "the message nests deeper than 64")
        let document: JSONDocument
        do {
            document = try reader.document()
        } catch {
            return .failure(RPCFailure(id: .null, code: .parseError, message: "not JSON: \(error.message)"))
        }
        guard case .object = document else {
            return .failure(RPCFailure(id: .null, code: .invalidRequest, message: "a message is a JSON object"))
        }
        let id = document["id"].flatMap(Self.id)
        guard case .string("2.0")? = document["jsonrpc"] else {
            return .failure(
                RPCFailure(id: id ?? .null, code: .invalidRequest, message: "\"jsonrpc\" must be \"2.0\""))
        }
        guard let methodValue = document["method"] else {
            if document["result"] != nil || document["error"] != nil { return .success(.response) }
            return .failure(RPCFailure(id: id ?? .null, code: .invalidRequest, message: "no \"method\""))
        }
        guard case .string(let method) = methodValue else {
            return .failure(RPCFailure(id: id ?? .null, code: .invalidRequest, message: "\"method\" is not a string"))
        }
        let params = document["params"]
        if document["id"] == nil { return .success(.notification(method: method, params: params)) }
        guard let id else {
            return .failure(
                RPCFailure(id: .null, code: .invalidRequest, message: "\"id\" is neither an integer nor a string"))
        }
        return .success(.request(id: id, method: method, params: params))
    }

    /// An id as the client wrote it: an integer or a string.
    private static func id(_ value: JSONDocument) -> JSONValue? {
        switch value {
        case .string(let text): return .string(text)
        case .number(let number) where number == number.rounded() && abs(number) < 1e15: return .integer(Int(number))
        default: return nil
        }
    }
}

/// A request that fails: its id, the protocol's code, and a message that says what to do.
package struct RPCFailure: Error {
    /// The protocol's error codes (JSON-RPC 2.0's, and LSP's own).
    package enum Code: Int {
        case parseError = -32700
        case invalidRequest = -32600
        case methodNotFound = -32601
        case invalidParams = -32602
        case internalError = -32603
        case serverNotInitialized = -32002
        case requestFailed = -32803
    }

    package var id: JSONValue
    package var code: Code
    package var message: String

    package init(id: JSONValue, code: Code, message: String) {
        self.id = id
        self.code = code
        self.message = message
    }

    /// The response carrying the error.
    package var response: JSONValue {
        .object([
            ("jsonrpc", .string("2.0")), ("id", id),
            ("error", .object([("code", .integer(code.rawValue)), ("message", .string(message))])),
        ])
    }
}
