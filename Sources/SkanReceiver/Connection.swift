import SkanHTTP

/// One client connection: the bytes it sent, parsed into requests, and the answers waiting to go out. It
/// reads no further request while one awaits its answer (a postback its fsync, `/metrics` the counting), so
/// answers go out in request order.
final class Connection {
    let descriptor: Int32
    /// The port it came in on: public routes only, or admin routes too.
    let isAdmin: Bool
    /// The peer's address, as the connection limits count it, and whether it is a trusted proxy (looked up once).
    let peer: String
    var peerIsTrusted = false
    var parser: HTTPRequestParser
    var output: [UInt8] = []
    var sent = 0
    /// A request of this connection waits: its postback for the fsync, or `/metrics` for the counting.
    var awaitingAnswer = false
    /// Close once the output is sent.
    var closing = false
    /// The request being answered asked for the connection to close after its answer (`Connection: close`, or
    /// HTTP/1.0 without `keep-alive`): that answer says so, and nothing after it is read.
    var closesAfterAnswer = false
    /// The answer is sent and the write side shut: what the client still sends is read and dropped until it
    /// closes or the deadline passes, so that closing does not reset the connection before the client has
    /// read the answer (a lingering close).
    var lingering = false
    /// No request has been read yet: the first is timed from accept, not from its first byte.
    var awaitingFirstRequest = true
    /// When the request being read must be complete, or when an idle connection is closed.
    var deadline: Double

    init(descriptor: Int32, isAdmin: Bool, peer: String, limits: HTTPRequestParser.Limits, deadline: Double) {
        self.descriptor = descriptor
        self.isAdmin = isAdmin
        self.peer = peer
        self.parser = HTTPRequestParser(limits: limits)
        self.deadline = deadline
    }

    var hasOutput: Bool { sent < output.count }

    /// Answers queued and not yet taken by the client, in bytes.
    var backlog: Int { output.count - sent }

    /// Answers a client may leave unread before its connection is read no further: one that pipelines and
    /// never reads stops being read, instead of growing the process.
    static let backlogLimit = 64 * 1024

    /// Whether the next request may be read: nothing waits and the client has read its answers.
    var readsRequests: Bool { !awaitingAnswer && !closing && backlog < Self.backlogLimit }

    /// Queues bytes that are no final answer (an interim `100 Continue`).
    func queueRaw(_ bytes: [UInt8]) {
        if sent == output.count {
            output.removeAll(keepingCapacity: true)
            sent = 0
        }
        output += bytes
    }

    func queue(_ response: SerializedResponse) {
        if sent == output.count {
            output.removeAll(keepingCapacity: true)
            sent = 0
        }
        // `closingBytes` are `bytes` for an answer that closes anyway.
        output += closesAfterAnswer ? response.closingBytes : response.bytes
        if response.closes || closesAfterAnswer { closing = true }
    }
}

/// An answer as it goes on the wire, made once (the postback answers are the same for every request), as it is
/// and saying `Connection: close` for a request that asked for it.
struct SerializedResponse: Sendable {
    let status: Int
    let bytes: [UInt8]
    let closingBytes: [UInt8]
    let closes: Bool

    init(_ response: HTTPResponse, headOnly: Bool = false) {
        status = response.status.rawValue
        bytes = response.serialized(headOnly: headOnly)
        var closing = response
        closing.closes = true
        closingBytes = response.closes ? bytes : closing.serialized(headOnly: headOnly)
        closes = response.closes
    }
}
