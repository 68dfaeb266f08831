import SkanCore

/// A validating JSON scanner over the bytes of one line. It never allocates per value and never recurses:
/// nested arrays and objects are skipped with an explicit stack, so a million `[` is a clear error (or a
/// long skip), never a stack overflow. Values are reported as spans of the input.
struct JSONScanner {
    enum ValueKind: UInt8 {
        case string, number, `true`, `false`, null, object, array
    }

    /// A value's place in the line. For strings the span excludes the quotes.
    struct Span {
        var kind: ValueKind
        var start: Int
        var end: Int
        /// Strings only: whether the text holds a backslash escape and must be decoded before use.
        var hasEscapes: Bool
    }

    struct Failure: Error {}

    let bytes: UnsafeBufferPointer<UInt8>
    var index: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int = 0) {
        self.bytes = bytes
        self.index = index
    }

    @inline(__always)
    mutating func skipWhitespace() {
        // JSON's whitespace bytes all lie at or below the space, so most calls end after this one test.
        while index < bytes.count, bytes[index] <= 0x20 {
            let byte = bytes[index]
            guard byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D else { return }
            index += 1
        }
    }

    @inline(__always)
    var atEnd: Bool { index >= bytes.count }

    @inline(__always)
    func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    @inline(__always)
    mutating func expect(_ byte: UInt8) throws(Failure) {
        guard index < bytes.count, bytes[index] == byte else { throw Failure() }
        index += 1
    }

    /// A string starting at the opening quote; returns the span of its contents.
    mutating func scanString() throws(Failure) -> Span {
        try expect(UInt8(ascii: "\""))
        let start = index
        var escapes = false
        while index < bytes.count {
            skipPlainStringBytes()
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return Span(kind: .string, start: start, end: index - 1, hasEscapes: escapes)
            }
            if byte == UInt8(ascii: "\\") {
                escapes = true
                index += 1
                guard index < bytes.count else { throw Failure() }
                switch bytes[index] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 1
                case UInt8(ascii: "u"):
                    guard index + 4 < bytes.count else { throw Failure() }
                    for offset in 1...4 where bytes[index + offset].hexDigitValue == nil { throw Failure() }
                    index += 5
                default:
                    throw Failure()
                }
                continue
            }
            guard byte >= 0x20 else { throw Failure() }  // raw control characters are not allowed in JSON strings
            index += 1
        }
        throw Failure()
    }

    /// Skips string bytes that need no attention (not a quote, backslash or control character) sixteen or
    /// eight at a time: a word-wide test finds whether any of the bytes is special. It may stop early at
    /// a space or `!`, which `scanString` then steps over.
    @inline(__always)
    private mutating func skipPlainStringBytes() {
        guard let base = bytes.baseAddress else { return }
        @inline(__always) func special(_ word: UInt64) -> UInt64 {
            // Below 0x23 takes control characters and the quote in one test; a space or `!` flagged with
            // them is passed over by the caller.
            WordBytes.below(0x23, in: word) | WordBytes.equal(to: UInt8(ascii: "\\"), in: word)
        }
        // Sixteen bytes a turn, then eight. The lowest flagged byte is the first that needs a look.
        while index + 16 <= bytes.count {
            let first = special(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            let second = special(UnsafeRawPointer(base + index + 8).loadUnaligned(as: UInt64.self))
            if first != 0 {
                index += first.trailingZeroBitCount / 8
                return
            }
            if second != 0 {
                index += 8 + second.trailingZeroBitCount / 8
                return
            }
            index += 16
        }
        while index + 8 <= bytes.count {
            let word = special(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            if word != 0 {
                index += word.trailingZeroBitCount / 8
                return
            }
            index += 8
        }
    }

    /// A number in JSON's grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    mutating func scanNumber() throws(Failure) -> Span {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), first.isDigit else { throw Failure() }
        index += 1
        if first != UInt8(ascii: "0") {
            while let byte = peek(), byte.isDigit { index += 1 }
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard let byte = peek(), byte.isDigit else { throw Failure() }
            while let byte = peek(), byte.isDigit { index += 1 }
        }
        if let byte = peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            index += 1
            if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { index += 1 }
            guard let byte = peek(), byte.isDigit else { throw Failure() }
            while let byte = peek(), byte.isDigit { index += 1 }
        }
        return Span(kind: .number, start: start, end: index, hasEscapes: false)
    }

    /// `true`, `false` or `null` (as `kind` says), compared four bytes at once.
    mutating func scanLiteral(_ kind: ValueKind) throws(Failure) -> Span {
        let (expected, length): (UInt32, Int) =
            switch kind {
            case .true: (Self.littleEndianWord("t", "r", "u", "e"), 4)
            case .false: (Self.littleEndianWord("f", "a", "l", "s"), 5)  // then the "e"
            default: (Self.littleEndianWord("n", "u", "l", "l"), 4)
            }
        guard index + length <= bytes.count, let base = bytes.baseAddress,
            UnsafeRawPointer(base + index).loadUnaligned(as: UInt32.self).littleEndian == expected,
            length == 4 || base[index + 4] == UInt8(ascii: "e")
        else { throw Failure() }
        let start = index
        index += length
        return Span(kind: kind, start: start, end: index, hasEscapes: false)
    }

    /// Four ASCII bytes as the little-endian word they make in memory.
    @inline(__always)
    private static func littleEndianWord(
        _ a: Unicode.Scalar, _ b: Unicode.Scalar, _ c: Unicode.Scalar, _ d: Unicode.Scalar
    ) -> UInt32 {
        UInt32(a.value) | UInt32(b.value) << 8 | UInt32(c.value) << 16 | UInt32(d.value) << 24
    }

    /// Any value. Arrays and objects are validated and skipped without recursion; `stack` is scratch space
    /// for the open brackets (kept by the caller so it is allocated once).
    mutating func scanValue(stack: inout [UInt8]) throws(Failure) -> Span {
        guard let byte = peek() else { throw Failure() }
        switch byte {
        case UInt8(ascii: "\""): return try scanString()
        case UInt8(ascii: "t"): return try scanLiteral(.true)
        case UInt8(ascii: "f"): return try scanLiteral(.false)
        case UInt8(ascii: "n"): return try scanLiteral(.null)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let start = index
            try skipContainer(stack: &stack)
            return Span(kind: byte == UInt8(ascii: "{") ? .object : .array, start: start, end: index, hasEscapes: false)
        default: return try scanNumber()
        }
    }

    /// Skips a whole array or object, checking its grammar: commas between members, `key:` in objects.
    private mutating func skipContainer(stack: inout [UInt8]) throws(Failure) {
        stack.removeAll(keepingCapacity: true)
        stack.append(bytes[index])
        index += 1
        var expectingValue = true  // right after an opening bracket: a value (or key) or the closing bracket
        while let open = stack.last {
            skipWhitespace()
            guard let byte = peek() else { throw Failure() }
            let close = open == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            if byte == close {
                index += 1
                stack.removeLast()
                expectingValue = false
                if stack.isEmpty { return }
                continue
            }
            if !expectingValue {
                try expect(UInt8(ascii: ","))
                skipWhitespace()
            }
            if open == UInt8(ascii: "{") {
                _ = try scanString()
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
                skipWhitespace()
            }
            guard let next = peek() else { throw Failure() }
            if next == UInt8(ascii: "{") || next == UInt8(ascii: "[") {
                stack.append(next)
                index += 1
                expectingValue = true
                // An empty container closes at once on the next turn.
                continue
            }
            switch next {
            case UInt8(ascii: "\""): _ = try scanString()
            case UInt8(ascii: "t"): _ = try scanLiteral(.true)
            case UInt8(ascii: "f"): _ = try scanLiteral(.false)
            case UInt8(ascii: "n"): _ = try scanLiteral(.null)
            default: _ = try scanNumber()
            }
            expectingValue = false
        }
    }
}
