/// A chunked body (RFC 9112, 7.1) read as its bytes arrive: `size[;ext] CRLF data CRLF`, then `0 CRLF`,
/// trailer fields and `CRLF`. Sizes are hex with at most 8 digits; the decoded body and the trailers are bounded.
struct ChunkedBody {
    private enum State {
        case size
        case data(remaining: Int)
        case dataEnd
        case trailer
    }

    private var state = State.size
    private(set) var body: [UInt8] = []
    private var trailerBytes = 0

    /// Reads what it can from `buffer` at `start` (moving it on); true once the last chunk and the trailer
    /// section are read.
    mutating func read(
        _ buffer: [UInt8], from start: inout Int, limits: HTTPRequestParser.Limits
    ) throws(HTTPRequestParser.Refusal) -> Bool {
        while true {
            switch state {
            case .size:
                guard let end = lineEnd(buffer, from: start) else {
                    if buffer.count - start > 1024 { throw malformed("a chunk size line over 1 KiB") }
                    return false
                }
                // The limit holds for a whole line as well as for one still arriving.
                if end - start > 1024 { throw malformed("a chunk size line over 1 KiB") }
                let line = buffer[start..<end]
                let digits = line.prefix { $0 != UInt8(ascii: ";") }
                guard !digits.isEmpty, digits.count <= 8, digits.allSatisfy(Self.isHexDigit) else {
                    throw malformed("malformed chunk size")
                }
                let size = digits.reduce(0) { $0 * 16 + Self.hexValue($1) }
                start = end + 2
                if size == 0 {
                    state = .trailer
                } else {
                    guard body.count + size <= limits.bodyBytes else {
                        throw HTTPRequestParser.Refusal(status: .contentTooLarge, reason: "chunked body over the limit")
                    }
                    state = .data(remaining: size)
                }
            case .data(let remaining):
                let available = min(remaining, buffer.count - start)
                body += buffer[start..<start + available]
                start += available
                if available < remaining {
                    state = .data(remaining: remaining - available)
                    return false
                }
                state = .dataEnd
            case .dataEnd:
                guard buffer.count - start >= 2 else { return false }
                guard buffer[start] == 13, buffer[start + 1] == 10 else { throw malformed("a chunk not ended by CRLF") }
                start += 2
                state = .size
            case .trailer:
                guard let end = lineEnd(buffer, from: start) else {
                    if buffer.count - start > limits.headerBytes { throw malformed("trailer over the limit") }
                    return false
                }
                trailerBytes += end - start + 2
                guard trailerBytes <= limits.headerBytes else { throw malformed("trailer over the limit") }
                let empty = end == start
                start = end + 2
                if empty { return true }
            }
        }
    }

    private func malformed(_ reason: String) -> HTTPRequestParser.Refusal {
        HTTPRequestParser.Refusal(status: .badRequest, reason: reason)
    }

    /// The offset of the next CR LF; a bare CR or LF is refused by the caller's next read, so it only finds
    /// the pair.
    private func lineEnd(_ buffer: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + 1 < buffer.count {
            if buffer[index] == 13, buffer[index + 1] == 10 { return index }
            index += 1
        }
        return nil
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)
    }

    private static func hexValue(_ byte: UInt8) -> Int {
        switch byte {
        case 48...57: Int(byte - 48)
        case 65...70: Int(byte - 55)
        default: Int(byte - 87)
        }
    }
}
