import SkanCore

extension Lexer {
    /// Lexes a double-quoted string starting at the opening quote and returns its decoded value.
    /// Escapes: `\"`, `\\`, `\n`, `\t`, `\u{E9}` (one to eight hex digits). A raw newline or the end of the file ends it with an error.
    mutating func lexString(start: SourceLocation) -> String {
        index += 1  // opening quote
        var value: [UInt8] = []
        var truncated = false
        func append(_ bytes: some Sequence<UInt8>) {
            guard !truncated else { return }
            value.append(contentsOf: bytes)
            if value.count > Lexer.maximumStringBytes { truncated = true }
        }
        while true {
            guard let byte = peek(), !LineBreak.isLineEnd(byte) else {
                report(.unterminatedString(at: start))
                break
            }
            if byte == UInt8(ascii: "\"") {
                index += 1
                break
            }
            if byte == UInt8(ascii: "\\") {
                append(lexEscape())
                continue
            }
            index += 1
            append(CollectionOfOne(byte))
        }
        if truncated {
            report(.stringTooLong(at: start))
            value.removeLast(value.count - Lexer.maximumStringBytes)
        }
        return String(decoding: value, as: UTF8.self)
    }

    private mutating func lexEscape() -> [UInt8] {
        let escapeStart = currentLocation
        index += 1  // backslash
        guard let byte = peek(), !LineBreak.isLineEnd(byte) else {
            report(
                .danglingBackslash(at: escapeStart))
            return []
        }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return [UInt8(ascii: "\"")]
        case UInt8(ascii: "\\"): return [UInt8(ascii: "\\")]
        case UInt8(ascii: "n"): return [UInt8(ascii: "\n")]
        case UInt8(ascii: "t"): return [UInt8(ascii: "\t")]
        case UInt8(ascii: "u"):
            return lexUnicodeEscape(escapeStart)
        default:
            report(
                .unknownEscape(byte, at: escapeStart))
            return []
        }
    }

    /// `\u{E9}`: one to eight hex digits naming a Unicode scalar.
    private mutating func lexUnicodeEscape(_ escapeStart: SourceLocation) -> [UInt8] {
        guard peek() == UInt8(ascii: "{") else {
            report(.unicodeEscapeWithoutBrace(at: escapeStart))
            return []
        }
        index += 1
        var scalarValue: UInt32 = 0
        var digits = 0
        while let b = peek(), let digit = b.hexDigitValue {
            index += 1
            digits += 1
            if digits <= 8 { scalarValue = scalarValue &* 16 &+ UInt32(digit) }
        }
        guard peek() == UInt8(ascii: "}"), (1...8).contains(digits), let scalar = Unicode.Scalar(scalarValue) else {
            if peek() == UInt8(ascii: "}") { index += 1 }
            report(
                .invalidUnicodeEscape(at: escapeStart))
            return []
        }
        index += 1
        return Array(String(Character(scalar)).utf8)
    }
}

extension Diagnostic {
    fileprivate static func unterminatedString(at location: SourceLocation) -> Diagnostic {
        .error(.syntax, "unterminated string; add a closing '\"' on the same line", at: location)
    }

    fileprivate static func stringTooLong(at location: SourceLocation) -> Diagnostic {
        .error(.limit, "string is longer than \(Lexer.maximumStringBytes) bytes", at: location)
    }

    fileprivate static func danglingBackslash(at location: SourceLocation) -> Diagnostic {
        .error(.syntax, "a backslash must be followed by an escape: \\\", \\\\, \\n, \\t or \\u{…}", at: location)
    }

    fileprivate static func unknownEscape(_ byte: UInt8, at location: SourceLocation) -> Diagnostic {
        .error(.syntax, "unknown escape '\\\(Unicode.Scalar(byte))'; use \\\", \\\\, \\n, \\t or \\u{…}", at: location)
    }

    fileprivate static func unicodeEscapeWithoutBrace(at location: SourceLocation) -> Diagnostic {
        .error(.syntax, "expected '{' after \\u, as in \\u{00E9}", at: location)
    }

    fileprivate static func invalidUnicodeEscape(at location: SourceLocation) -> Diagnostic {
        .error(.syntax, "invalid \\u{…} escape; write one to eight hex digits of a Unicode scalar", at: location)
    }
}
