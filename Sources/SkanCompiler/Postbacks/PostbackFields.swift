/// Where each known key's value sits: in the line itself, or in the decoded JWS payload of an
/// AdAttributionKit stanza. Reset for every line and reused, so reading a line allocates nothing.
struct PostbackFields {
    enum Source: UInt8 { case line, payload }

    struct Value {
        var span: JSONScanner.Span
        var source: Source
    }

    private(set) var values: [Value?] = Array(repeating: nil, count: PostbackKey.allCases.count)

    mutating func reset() {
        for index in values.indices { values[index] = nil }
    }

    subscript(key: PostbackKey) -> Value? {
        get { values[key.rawValue] }
        set { values[key.rawValue] = newValue }
    }

    /// Reads the members of the object at `scanner.index` into the slots of the keys skanc knows; other
    /// members are scanned (so the whole line is checked) and dropped. A repeated key keeps its last value.
    /// Throws when the text is not one valid JSON object with nothing after it.
    mutating func readObject(_ scanner: inout JSONScanner, source: Source, stack: inout [UInt8]) throws(JSONScanner.Failure) {
        try scanner.expect(UInt8(ascii: "{"))
        scanner.skipWhitespace()
        if scanner.peek() == UInt8(ascii: "}") {
            scanner.index += 1
        } else {
            while true {
                scanner.skipWhitespace()
                let key = try scanner.scanString()
                scanner.skipWhitespace()
                try scanner.expect(UInt8(ascii: ":"))
                scanner.skipWhitespace()
                let value = try scanner.scanValue(stack: &stack)
                if !key.hasEscapes, let known = PostbackKey.match(scanner.bytes, key.start, key.end) {
                    self[known] = Value(span: value, source: source)
                }
                scanner.skipWhitespace()
                guard let byte = scanner.peek() else { throw JSONScanner.Failure() }
                scanner.index += 1
                if byte == UInt8(ascii: "}") { break }
                guard byte == UInt8(ascii: ",") else { throw JSONScanner.Failure() }
            }
        }
        scanner.skipWhitespace()
        guard scanner.atEnd else { throw JSONScanner.Failure() }
    }
}
