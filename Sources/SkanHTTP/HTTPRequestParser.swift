/// A strict, bounded, incremental HTTP/1.1 request parser (RFC 9112): bytes go in as they arrive, whole
/// requests come out, pipelined ones in order. What a lenient parser would guess at is refused: a target not
/// in origin form, a bare LF, folded or malformed header lines, `Content-Length` with `Transfer-Encoding` or
/// given twice, a coding other than `chunked`, a missing `Host` in HTTP/1.1. No input makes it hold more
/// than the header limit plus the body limit.
public struct HTTPRequestParser {
    /// The bounds of one request.
    public struct Limits: Sendable {
        /// The request line and header fields together.
        public var headerBytes = 16 * 1024
        /// Header fields, at most.
        public var headerCount = 64
        /// The body, decoded (`--max-body`).
        public var bodyBytes = 64 * 1024

        /// Bounds; the defaults suit postbacks (a few hundred bytes of JSON).
        public init(headerBytes: Int = 16 * 1024, headerCount: Int = 64, bodyBytes: Int = 64 * 1024) {
            self.headerBytes = headerBytes
            self.headerCount = headerCount
            self.bodyBytes = bodyBytes
        }
    }

    /// What a request that cannot be served is answered with; the connection closes after it.
    public struct Refusal: Error, Sendable, Equatable {
        /// The status to answer with: 400, 413, 431 or 505.
        public var status: HTTPStatus
        /// Why, for the log (never sent: an answer reflects no input).
        public var reason: String
    }

    /// What `next()` finds in the bytes so far.
    public enum Outcome: Equatable {
        case request(HTTPRequest)
        case refused(Refusal)
    }

    /// The bounds every request is held to.
    public let limits: Limits
    private var buffer: [UInt8] = []
    /// Where unread bytes start in `buffer`.
    private var start = 0
    /// The request whose header is read, waiting for its body.
    private var pending: (request: HTTPRequest, framing: Framing)?
    /// Set once a refusal is returned: the stream cannot be resynchronised, so nothing more is parsed.
    private var failed = false
    /// How many bytes after `start` are known not to begin the header's end: a header trickling in a byte at a
    /// time is scanned once, not once per byte.
    private var headerScanned = 0
    /// Whether `100 Continue` was asked for the request whose body is awaited.
    private var continueSent = false

    private enum Framing {
        case length(Int)
        case chunked(ChunkedBody)
    }

    /// A parser at the start of a connection.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Whether bytes of a request are held: a connection closed now ended a request half-way.
    public var hasPartialRequest: Bool { pending != nil || start < buffer.count }

    /// Whether the header of a request is read and its body is awaited.
    public var isReadingBody: Bool { pending != nil }

    /// Whether the client waits for `100 Continue` before it sends the body (`Expect: 100-continue`, RFC 9110,
    /// 10.1.1): true once per such request, while its body has not all arrived. curl waits a second for it.
    public mutating func takeContinueRequest() -> Bool {
        guard !continueSent, let (request, _) = pending, request.minorVersion >= 1,
            request.header("expect")?.lowercased() == "100-continue"
        else { return false }
        continueSent = true
        return true
    }

    /// The bytes of an interim `100 Continue` answer.
    public static let continueAnswer = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// Appends bytes as they arrive; nothing is parsed after a refusal.
    public mutating func feed<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        guard !failed else { return }
        if start > 0, start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 64 * 1024 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole request, or a refusal; nil until more bytes arrive.
    public mutating func next() -> Outcome? {
        guard !failed else { return nil }
        do {
            if pending == nil {
                guard let header = try readHeader() else { return nil }
                pending = header
            }
            guard let (request, framing) = pending else { return nil }
            var body: [UInt8]
            switch framing {
            case .length(let count):
                guard buffer.count - start >= count else { return nil }
                body = Array(buffer[start..<start + count])
                start += count
            case .chunked(var chunked):
                let done = try chunked.read(buffer, from: &start, limits: limits)
                guard done else {
                    pending = (request, .chunked(chunked))
                    return nil
                }
                body = chunked.body
            }
            pending = nil
            continueSent = false
            var complete = request
            swap(&complete.body, &body)
            return .request(complete)
        } catch {
            failed = true
            return .refused(error)
        }
    }

    /// The request line and headers, once the blank line after them is in; the body's framing.
    private mutating func readHeader() throws(Refusal) -> (HTTPRequest, Framing)? {
        // Empty lines before a request line are skipped (RFC 9112, 2.2).
        while buffer.count - start >= 2, buffer[start] == 13, buffer[start + 1] == 10 {
            start += 2
            headerScanned = 0
        }
        guard let end = headerEnd() else {
            if buffer.count - start > limits.headerBytes {
                throw Refusal(status: .headerFieldsTooLarge, reason: "request header over \(limits.headerBytes) bytes")
            }
            return nil
        }
        guard end - start <= limits.headerBytes else {
            throw Refusal(status: .headerFieldsTooLarge, reason: "request header over \(limits.headerBytes) bytes")
        }
        let lines = try Self.lines(buffer[start..<end])
        start = end + 4
        headerScanned = 0
        var request = try Self.requestLine(lines[0])
        guard lines.count - 1 <= limits.headerCount else {
            throw Refusal(status: .headerFieldsTooLarge, reason: "over \(limits.headerCount) header fields")
        }
        for line in lines.dropFirst() { request.headers.append(try Self.field(line)) }
        return (request, try framing(of: request))
    }

    /// The offset of the CR LF CR LF that ends the header, if it is in.
    private mutating func headerEnd() -> Int? {
        var index = start + headerScanned
        let last = buffer.count - 4
        while index <= last {
            if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 {
                return index
            }
            index += 1
        }
        headerScanned = max(0, buffer.count - 3 - start)
        return nil
    }

    /// The header's lines; a CR or LF anywhere but in a CR LF pair is refused (no bare-LF guessing).
    private static func lines(_ bytes: ArraySlice<UInt8>) throws(Refusal) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == 13 {
                guard index + 1 < bytes.endIndex, bytes[index + 1] == 10 else {
                    throw Refusal(status: .badRequest, reason: "a CR without LF in the header")
                }
                lines.append(bytes[lineStart..<index])
                index += 2
                lineStart = index
                continue
            }
            if byte == 10 { throw Refusal(status: .badRequest, reason: "a bare LF in the header") }
            index += 1
        }
        lines.append(bytes[lineStart..<bytes.endIndex])
        return lines
    }

    /// `METHOD SP origin-form SP HTTP/1.x`.
    private static func requestLine(_ line: ArraySlice<UInt8>) throws(Refusal) -> HTTPRequest {
        guard let firstSpace = line.firstIndex(of: 32),
            let secondSpace = line[(firstSpace + 1)...].firstIndex(of: 32),
            !line[(secondSpace + 1)...].contains(32)
        else {
            throw Refusal(status: .badRequest, reason: "malformed request line")
        }
        let method = line[..<firstSpace]
        guard !method.isEmpty, method.allSatisfy(HTTPToken.isTokenByte) else {
            throw Refusal(status: .badRequest, reason: "malformed request line")
        }
        let target = line[(firstSpace + 1)..<secondSpace]
        // Origin form only: an absolute form (`http://host/`), `*` or an authority is not for this server.
        guard target.first == UInt8(ascii: "/"), target.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw Refusal(status: .badRequest, reason: "the target is not in origin form")
        }
        let version = line[(secondSpace + 1)...]
        guard version.count == 8, version.starts(with: "HTTP/".utf8), version[version.startIndex + 6] == 0x2E else {
            throw Refusal(status: .badRequest, reason: "malformed HTTP version")
        }
        let major = version[version.startIndex + 5]
        let minor = version[version.startIndex + 7]
        guard major == UInt8(ascii: "1"), minor == UInt8(ascii: "0") || minor == UInt8(ascii: "1") else {
            throw Refusal(status: .versionNotSupported, reason: "not HTTP/1.0 or HTTP/1.1")
        }
        return HTTPRequest(
            method: String(decoding: method, as: UTF8.self), target: String(decoding: target, as: UTF8.self),
            minorVersion: Int(minor - UInt8(ascii: "0")), headers: [], body: [])
    }

    /// `name: value`, the name a token with no space before the colon, the value free of control bytes.
    private static func field(_ line: ArraySlice<UInt8>) throws(Refusal) -> (name: String, value: String) {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
            line[line.startIndex..<colon].allSatisfy(HTTPToken.isTokenByte)
        else {
            // A line starting with a space is an obsolete fold, refused as RFC 9112 (5.2) allows.
            throw Refusal(status: .badRequest, reason: "malformed header field")
        }
        var value = line[(colon + 1)...]
        while let first = value.first, first == 32 || first == 9 { value.removeFirst() }
        while let last = value.last, last == 32 || last == 9 { value.removeLast() }
        guard value.allSatisfy({ $0 == 9 || ($0 >= 0x20 && $0 != 0x7F) }) else {
            throw Refusal(status: .badRequest, reason: "a control byte in a header value")
        }
        let rawName = line[line.startIndex..<colon]
        // Written lower-cased straight into the string: a name is ASCII (a token), so byte for byte is valid.
        let name = String(unsafeUninitializedCapacity: rawName.count) { buffer in
            for (offset, byte) in rawName.enumerated() { buffer[offset] = HTTPToken.lowercased(byte) }
            return rawName.count
        }
        return (name, String(decoding: value, as: UTF8.self))
    }

    /// How the body is delimited: by one `Content-Length`, by `Transfer-Encoding: chunked`, or absent. Both,
    /// either twice, or another coding: refused (request smuggling lives in the difference between two readers).
    private func framing(of request: HTTPRequest) throws(Refusal) -> Framing {
        var hosts = 0
        var lengths: [String] = []
        var codings: [String] = []
        for field in request.headers {
            switch field.name {
            case "host": hosts += 1
            case "content-length": lengths.append(field.value)
            case "transfer-encoding": codings.append(field.value)
            default: break
            }
        }
        if request.minorVersion == 1, hosts != 1 {
            throw Refusal(status: .badRequest, reason: "HTTP/1.1 needs exactly one Host")
        }
        switch (lengths.count, codings.count) {
        case (0, 0):
            return .length(0)
        case (1, 0):
            let text = lengths[0]
            guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ (48...57).contains($0) }),
                let count = Int(text)
            else {
                throw Refusal(status: .badRequest, reason: "malformed Content-Length")
            }
            guard count <= limits.bodyBytes else {
                throw Refusal(status: .contentTooLarge, reason: "body of \(count) bytes")
            }
            return .length(count)
        case (0, 1):
            guard request.minorVersion == 1, codings[0].lowercased() == "chunked" else {
                throw Refusal(status: .badRequest, reason: "a transfer coding other than chunked")
            }
            return .chunked(ChunkedBody())
        default:
            throw Refusal(status: .badRequest, reason: "ambiguous body framing")
        }
    }
}

/// The byte classes of HTTP's grammar.
enum HTTPToken {
    /// `tchar` (RFC 9110, 5.6.2).
    static func isTokenByte(_ byte: UInt8) -> Bool {
        tokenBytes[Int(byte)]
    }

    /// Which bytes are `tchar`, looked up rather than searched: every header name is checked byte by byte.
    private static let tokenBytes: [Bool] = (0...255).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(UInt8(byte))
        }
    }

    static func lowercased(_ byte: UInt8) -> UInt8 {
        (65...90).contains(byte) ? byte + 32 : byte
    }
}
