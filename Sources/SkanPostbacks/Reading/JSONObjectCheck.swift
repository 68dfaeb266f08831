/// Whether a request body is one JSON object, as the line it will be stored as is read: the scanner that
/// decodes postback lines checks it (grammar, strings, numbers, nesting) and builds nothing, so the receiver's
/// `400` check costs a pass over the bytes and agrees with what `skanc postbacks` can read.
package enum JSONObjectCheck {
    /// True when `bytes` hold one JSON object and nothing else but JSON white space around it.
    package static func holdsOneObject(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer)
            var stack: [UInt8] = []
            scanner.skipWhitespace()
            guard scanner.peek() == UInt8(ascii: "{"),
                let value = try? scanner.scanValue(stack: &stack), value.kind == .object
            else { return false }
            scanner.skipWhitespace()
            return scanner.atEnd
        }
    }
}
