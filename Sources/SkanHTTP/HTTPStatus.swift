/// The statuses the receiver answers with, declared once with their reason phrases.
public enum HTTPStatus: Int, Sendable, CaseIterable {
    case ok = 200
    case notModified = 304
    case badRequest = 400
    case unauthorized = 401
    case notFound = 404
    case methodNotAllowed = 405
    case requestTimeout = 408
    case contentTooLarge = 413
    case tooManyRequests = 429
    case headerFieldsTooLarge = 431
    case notImplemented = 501
    case serviceUnavailable = 503
    case versionNotSupported = 505

    /// The reason phrase of the status line.
    public var reason: String {
        switch self {
        case .ok: "OK"
        case .notModified: "Not Modified"
        case .badRequest: "Bad Request"
        case .unauthorized: "Unauthorized"
        case .notFound: "Not Found"
        case .methodNotAllowed: "Method Not Allowed"
        case .requestTimeout: "Request Timeout"
        case .contentTooLarge: "Content Too Large"
        case .tooManyRequests: "Too Many Requests"
        case .headerFieldsTooLarge: "Request Header Fields Too Large"
        case .notImplemented: "Not Implemented"
        case .serviceUnavailable: "Service Unavailable"
        case .versionNotSupported: "HTTP Version Not Supported"
        }
    }
}

/// An answer: status, content type, body, and whether the connection closes after it.
public struct HTTPResponse: Sendable {
    /// The status line's code and reason.
    public var status: HTTPStatus
    /// `Content-Type`.
    public var contentType: String
    /// The body, always with its `Content-Length`.
    public var body: [UInt8]
    /// Whether the connection closes after this answer.
    public var closes: Bool
    /// `Allow`, for a 405.
    public var allow: String?
    /// `Retry-After` in seconds, for a 429 or 503.
    public var retryAfter: Int?
    /// More header fields, written as given (names and values from the server, never from a request).
    public var extraHeaders: [(name: String, value: String)] = []

    /// An answer whose body is `text` as `text/plain; charset=utf-8`, with its length.
    public init(
        _ status: HTTPStatus, contentType: String = "text/plain; charset=utf-8", body: String, closes: Bool = false,
        allow: String? = nil, retryAfter: Int? = nil
    ) {
        self.retryAfter = retryAfter
        self.status = status
        self.contentType = contentType
        self.body = Array(body.utf8)
        self.closes = closes
        self.allow = allow
    }

    /// An answer of bytes (a report).
    public init(_ status: HTTPStatus, contentType: String, bytes: [UInt8], closes: Bool = false) {
        self.status = status
        self.contentType = contentType
        self.body = bytes
        self.closes = closes
        self.allow = nil
        self.retryAfter = nil
    }

    /// The bytes on the wire; a `HEAD` answer carries the headers only.
    public func serialized(headOnly: Bool = false) -> [UInt8] {
        var head = "HTTP/1.1 \(status.rawValue) \(status.reason)\r\n"
        // A 304 has no content, and no length but the one a 200 would have had: none is sent (RFC 9110, 8.6).
        if status != .notModified { head += "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n" }
        if let allow { head += "Allow: \(allow)\r\n" }
        if let retryAfter { head += "Retry-After: \(retryAfter)\r\n" }
        for (name, value) in extraHeaders { head += "\(name): \(value)\r\n" }
        head += closes ? "Connection: close\r\n\r\n" : "\r\n"
        return Array(head.utf8) + (headOnly ? [] : body)
    }
}
