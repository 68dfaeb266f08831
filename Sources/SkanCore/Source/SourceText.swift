/// The bytes of one schema together with the name it is reported under.
public struct SourceText: Sendable {
    /// The path exactly as the user gave it (or `<stdin>`); diagnostics print it unchanged.
    public let path: String
    /// The schema's bytes, UTF-8.
    public let bytes: [UInt8]

    /// A schema read from `path` (the name diagnostics show).
    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }

    /// A schema given as text, named `path` in diagnostics.
    public init(path: String, text: String) {
        self.init(path: path, bytes: Array(text.utf8))
    }

    /// The text of the line that holds `location`, without its line terminator; invalid UTF-8 is repaired.
    public func lineText(at location: SourceLocation) -> String {
        var start = min(max(location.offset, 0), bytes.count)
        while start > 0, bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\n"), bytes[end] != UInt8(ascii: "\r") { end += 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
