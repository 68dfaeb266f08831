/// One HTTP/1.1 request, as the parser hands it over: the method, the target as sent, the headers (names in
/// lower case) and the body.
public struct HTTPRequest: Sendable, Equatable {
    /// `GET`, `POST`, … as sent (a token).
    public var method: String
    /// The request target exactly as sent (origin form: `/path?query`); never normalised.
    public var target: String
    /// 0 for HTTP/1.0, 1 for HTTP/1.1.
    public var minorVersion: Int
    /// Header fields in order, names lower-cased, values trimmed.
    public var headers: [(name: String, value: String)]
    /// The body, decoded from its framing (`Content-Length` or chunked).
    public var body: [UInt8]

    /// The path: the target up to `?`.
    public var path: Substring { target[..<(target.utf8.firstIndex(of: UInt8(ascii: "?")) ?? target.endIndex)] }

    /// The value of `name` in the query (`format=html`), undecoded.
    public func queryValue(_ name: String) -> Substring? {
        guard let mark = target.firstIndex(of: "?") else { return nil }
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.first == Substring(name) { return parts.count == 2 ? parts[1] : "" }
        }
        return nil
    }

    /// The first value of header `name` (lower case).
    public func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }

    /// Whether the connection stays open after the answer: HTTP/1.1 unless `Connection: close`, HTTP/1.0 only
    /// with `Connection: keep-alive`.
    public var keepsAlive: Bool {
        guard headers.contains(where: { $0.name == "connection" }) else { return minorVersion >= 1 }
        let tokens = headers.filter { $0.name == "connection" }.flatMap {
            $0.value.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: " \t") }
        }
        if tokens.contains("close") { return false }
        return minorVersion >= 1 || tokens.contains("keep-alive")
    }

    /// Equal when every part is (headers in order).
    public static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        lhs.method == rhs.method && lhs.target == rhs.target && lhs.minorVersion == rhs.minorVersion
            && lhs.headers.map(\.name) == rhs.headers.map(\.name)
            && lhs.headers.map(\.value) == rhs.headers.map(\.value) && lhs.body == rhs.body
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var text = self
        while let first = text.first, set.contains(first) { text.removeFirst() }
        while let last = text.last, set.contains(last) { text.removeLast() }
        return String(text)
    }
}
