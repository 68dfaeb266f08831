/// Reads the answer to a request the receiver sent on (forwarding): the status code, and where the answer ends,
/// so that the connection can carry the next request. Bounded: the status line and headers at most 16 KiB, a
/// body at most 1 MiB (read and dropped); anything else is a failure, and the connection is not reused.
public struct HTTPResponseParser {
    /// What was read: the status, and whether the connection may carry another request.
    public struct Answer: Equatable, Sendable {
        /// The status code, 100-599.
        public var status: Int
        /// Whether the connection may carry the next request.
        public var keepsAlive: Bool

        /// An answer of `status`.
        public init(status: Int, keepsAlive: Bool) {
            self.status = status
            self.keepsAlive = keepsAlive
        }
    }

    /// Why an answer cannot be read.
    public struct Failure: Error, Equatable, Sendable {
        /// What was wrong, in words.
        public var reason: String
    }

    private var buffer: [UInt8] = []
    private var header: (status: Int, keepsAlive: Bool, framing: Framing)?
    private var bodyRead = 0
    /// For a body that ends when the connection does.
    private var ended = false

    private enum Framing {
        case length(Int)
        case chunked(ChunkedBody)
        case untilClose
    }

    static let headerLimit = 16 * 1024
    static let bodyLimit = 1 << 20

    /// A parser for one answer.
    public init() {}

    /// Appends what arrived.
    public mutating func feed<Bytes: Collection<UInt8>>(_ bytes: Bytes) { buffer.append(contentsOf: bytes) }

    /// The connection was closed by the peer: a body framed by the close is complete.
    public mutating func closed() { ended = true }

    /// The whole answer once it is in, nil until then; a failure when it cannot be one.
    public mutating func answer(toHead: Bool = false) throws(Failure) -> Answer? {
        if header == nil {
            guard let end = Self.headerEnd(buffer) else {
                if buffer.count > Self.headerLimit { throw Failure(reason: "an answer header over 16 KiB") }
                if ended { throw Failure(reason: "the connection closed before an answer") }
                return nil
            }
            header = try Self.readHeader(buffer[..<end], toHead: toHead)
            buffer.removeFirst(end + 4)
        }
        guard let (status, keepsAlive, framing) = header else { return nil }
        switch framing {
        case .length(let count):
            guard count <= Self.bodyLimit else { throw Failure(reason: "an answer body over 1 MiB") }
            guard buffer.count >= count else {
                if ended { throw Failure(reason: "the connection closed inside an answer") }
                return nil
            }
        case .chunked(var chunked):
            var start = 0
            let limits = HTTPRequestParser.Limits(bodyBytes: Self.bodyLimit)
            let done: Bool
            do {
                done = try chunked.read(buffer, from: &start, limits: limits)
            } catch {
                throw Failure(reason: "a malformed chunked answer")
            }
            buffer.removeFirst(start)
            header = (status, keepsAlive, .chunked(chunked))
            guard done else {
                if ended { throw Failure(reason: "the connection closed inside an answer") }
                return nil
            }
        case .untilClose:
            guard buffer.count <= Self.bodyLimit else { throw Failure(reason: "an answer body over 1 MiB") }
            guard ended else { return nil }
            return Answer(status: status, keepsAlive: false)
        }
        return Answer(status: status, keepsAlive: keepsAlive)
    }

    private static func headerEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    private static func readHeader(
        _ bytes: ArraySlice<UInt8>, toHead: Bool
    ) throws(Failure) -> (Int, Bool, Framing) {
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusLine = lines[0].split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard statusLine.count >= 2, statusLine[0] == "HTTP/1.1" || statusLine[0] == "HTTP/1.0",
            statusLine[1].count == 3, let status = Int(statusLine[1]), (100...599).contains(status)
        else { throw Failure(reason: "not an HTTP/1.1 status line") }
        var keepsAlive = statusLine[0] == "HTTP/1.1"
        var length: Int?
        var chunked = false
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw Failure(reason: "a malformed answer header") }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingSpaces().lowercased()
            switch name {
            case "content-length":
                guard let count = Int(value), count >= 0, length == nil || length == count else {
                    throw Failure(reason: "a malformed Content-Length")
                }
                length = count
            case "transfer-encoding": chunked = value.hasSuffix("chunked")
            case "connection":
                if value.contains("close") { keepsAlive = false }
                if value.contains("keep-alive") { keepsAlive = true }
            default: break
            }
        }
        // No body: to HEAD, for 1xx, 204 and 304.
        if toHead || status < 200 || status == 204 || status == 304 { return (status, keepsAlive, .length(0)) }
        if chunked { return (status, keepsAlive, .chunked(ChunkedBody())) }
        if let length { return (status, keepsAlive, .length(length)) }
        return (status, false, .untilClose)
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
