/// The base protocol's framing of JSON-RPC messages (LSP 3.17, "Base Protocol"): a header of `Name: value`
/// lines ended by CRLF, `Content-Length` required, an empty line, then that many bytes of UTF-8 JSON. Bytes
/// arrive in pieces of any size; whole messages come out in order.
public struct MessageFramer: Sendable {
    /// Why the stream cannot be read on: after one, the framing is lost and the server stops.
    public struct Malformed: Error, Equatable, Sendable {
        /// What was wrong, for the log.
        public var message: String
    }

    /// A header longer than this is refused: no client writes more than a few dozen bytes.
    public static let maximumHeader = 8 * 1024
    /// A body longer than this is refused, so no input makes the server hold unbounded memory.
    public static let maximumBody = 64 * 1024 * 1024

    private var buffer: [UInt8] = []
    private var start = 0

    /// An empty framer.
    public init() {}

    /// Adds bytes read from the stream.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// Whether bytes of an unfinished message are held (at the end of input, a torn message).
    public var holdsPartialMessage: Bool { start < buffer.count }

    /// The next whole message's body, or nil until more bytes arrive.
    public mutating func nextMessage() throws(Malformed) -> [UInt8]? {
        guard let headerEnd = headerEnd() else {
            if buffer.count - start > Self.maximumHeader {
                throw Malformed(message: "a header longer than \(Self.maximumHeader) bytes")
            }
            return nil
        }
        let length = try contentLength(in: buffer[start..<headerEnd])
        let bodyStart = headerEnd + 4
        guard buffer.count - bodyStart >= length else { return nil }
        let body = Array(buffer[bodyStart..<bodyStart + length])
        start = bodyStart + length
        // Drop what was read once it is most of the buffer, so a long session does not grow it.
        if start > 65_536, start * 2 > buffer.count {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        return body
    }

    /// The index of the CRLF CRLF that ends the header, if it has arrived.
    private func headerEnd() -> Int? {
        var index = start
        let limit = min(buffer.count, start + Self.maximumHeader + 4)
        while index + 3 < limit {
            if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 {
                return index
            }
            index += 1
        }
        return nil
    }

    private func contentLength(in header: ArraySlice<UInt8>) throws(Malformed) -> Int {
        var length: Int?
        for line in header.split(separator: 13, omittingEmptySubsequences: false) {
            let line = line.first == 10 ? line.dropFirst() : line[...]
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                throw Malformed(message: "a header line without a colon")
            }
            let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingSpaces()
            guard name == "content-length" else { continue }
            guard length == nil, !value.isEmpty, value.utf8.count <= 10,
                value.utf8.allSatisfy({ (48...57).contains($0) }), let number = Int(value)
            else { throw Malformed(message: "Content-Length is not one decimal number") }
            guard number <= Self.maximumBody else {
                throw Malformed(message: "a body of \(number) bytes, over the \(Self.maximumBody) this server reads")
            }
            length = number
        }
        guard let length else { throw Malformed(message: "a header without Content-Length") }
        return length
    }

    /// `body` framed for the stream.
    public static func frame(_ body: [UInt8]) -> [UInt8] {
        Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var scalars = Substring(self)
        while scalars.first == " " || scalars.first == "\t" { scalars.removeFirst() }
        while scalars.last == " " || scalars.last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
