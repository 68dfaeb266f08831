package import SkanCore
import SkanSchema

/// Turns schema bytes into tokens. Problems (a stray character, an unterminated string) become `syntax`
/// diagnostics and lexing goes on, so that one run reports as much as it can.
package struct Lexer {
    /// Strings longer than this are cut off with a `limit` diagnostic, so a runaway file stays cheap to report.
    package static let maximumStringBytes = 65_536

    private let bytes: [UInt8]
    var index = 0
    private var line = 1
    private var lineStart = 0
    private var sawTokenOnLine = false
    package private(set) var diagnostics: [Diagnostic] = []

    package init(bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte-order mark is not part of the text.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            index = 3
            lineStart = 3
        }
    }

    /// Lexes the whole input; the last token is always `.endOfFile`.
    package static func tokenize(_ bytes: [UInt8]) -> (tokens: [Token], diagnostics: [Diagnostic]) {
        var lexer = Lexer(bytes: bytes)
        var tokens: [Token] = []
        while true {
            let token = lexer.next()
            tokens.append(token)
            if token.kind == .endOfFile { break }
        }
        return (tokens, lexer.diagnostics)
    }

    var currentLocation: SourceLocation {
        SourceLocation(line: line, column: index - lineStart + 1, offset: index)
    }

    func peek(_ ahead: Int = 0) -> UInt8? {
        index + ahead < bytes.count ? bytes[index + ahead] : nil
    }

    mutating func report(_ diagnostic: Diagnostic) {
        diagnostics.append(diagnostic)
    }

    package mutating func next() -> Token {
        while true {
            skipTriviaAndComments()
            let start = currentLocation
            let startsLine = !sawTokenOnLine
            guard peek() != nil else {
                return Token(kind: .endOfFile, text: "", location: start, startsLine: startsLine)
            }
            if let token = lexToken(start: start, startsLine: startsLine) {
                sawTokenOnLine = true
                return token
            }
            skipStrayCharacters(start: start)
        }
    }

    /// Lexes the token at `start`, or returns nil when no token starts there.
    private mutating func lexToken(start: SourceLocation, startsLine: Bool) -> Token? {
        let kind: Token.Kind
        var decoded: String? = nil
        switch bytes[index] {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"):
            while let b = peek(), b.isIdentifierByte { index += 1 }
            kind = .identifier
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            kind = lexNumber()
        case UInt8(ascii: "\""):
            decoded = lexString(start: start)
            kind = .string
        case UInt8(ascii: ".") where peek(1) == UInt8(ascii: ".") && peek(2) == UInt8(ascii: "."):
            index += 3
            kind = .closedRange
        case UInt8(ascii: ".") where peek(1) == UInt8(ascii: ".") && peek(2) == UInt8(ascii: "<"):
            index += 3
            kind = .halfOpenRange
        case UInt8(ascii: ".") where peek(1) == UInt8(ascii: "."):
            // `..` is no range in this language: one error with the fix, then read as `...`.
            var before = start.offset
            while before > 0, bytes[before - 1].isDigit { before -= 1 }
            index += 2
            let lower = String(decoding: bytes[before..<start.offset], as: UTF8.self)
            report(.twoDotRange(lower: lower, upper: numberText(at: index), at: start))
            kind = .closedRange
        case UInt8(ascii: "$") where peek(1)?.isDigit == true:
            // A currency sign before an amount: one error with the fix, then the number is read alone.
            index += 1
            report(.currencyInAmount(number: numberText(at: index), at: start))
            let numberStart = index
            kind = lexNumber()
            decoded = String(decoding: bytes[numberStart..<index], as: UTF8.self)
        case UInt8(ascii: ".") where peek(1)?.isIdentifierStart == true:
            index += 1
            kind = .dot
        case UInt8(ascii: "+"):
            index += 1
            kind = .plus
        case UInt8(ascii: "{"):
            index += 1
            kind = .leftBrace
        case UInt8(ascii: "}"):
            index += 1
            kind = .rightBrace
        case UInt8(ascii: "("):
            index += 1
            kind = .leftParen
        case UInt8(ascii: ")"):
            index += 1
            kind = .rightParen
        case UInt8(ascii: "="):
            if peek(1) == UInt8(ascii: "=") {
                index += 2
                kind = .comparison(.equal)
            } else {
                index += 1
                kind = .equals
            }
        case UInt8(ascii: "!") where peek(1) == UInt8(ascii: "="):
            index += 2
            kind = .comparison(.notEqual)
        case UInt8(ascii: "&") where peek(1) == UInt8(ascii: "&"), UInt8(ascii: "|") where peek(1) == UInt8(ascii: "|"),
            UInt8(ascii: "!"):
            // Other languages' spellings of and, or and not: one error with the fix, then read as the word, so
            // the rest of the condition is checked too.
            let (spelling, word) =
                bytes[index] == UInt8(ascii: "&")
                ? ("&&", "and") : bytes[index] == UInt8(ascii: "|") ? ("||", "or") : ("!", "not")
            index += spelling.utf8.count
            report(
                .symbolForWord(spelling, word: word, at: start))
            decoded = word
            kind = .identifier
        case UInt8(ascii: "-") where peek(1)?.isDigit == true:
            // A negative number: lexed whole, so the parser can say why it is refused where it stands.
            index += 1
            kind = lexNumber()
        case UInt8(ascii: "<"):
            if peek(1) == UInt8(ascii: "=") {
                index += 2
                kind = .comparison(.lessOrEqual)
            } else {
                index += 1
                kind = .comparison(.less)
            }
        case UInt8(ascii: ">"):
            if peek(1) == UInt8(ascii: "=") {
                index += 2
                kind = .comparison(.greaterOrEqual)
            } else {
                index += 1
                kind = .comparison(.greater)
            }
        default:
            return nil
        }
        let text = decoded ?? String(decoding: bytes[start.offset..<index], as: UTF8.self)
        return Token(kind: kind, text: text, location: start, startsLine: startsLine)
    }

    private mutating func skipTriviaAndComments() {
        while let byte = peek() {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                // LF, and CR alone, end a line; a CR before a LF is white space.
                if LineBreak.isBreak(bytes, at: index) {
                    line += 1
                    lineStart = index + 1
                    sawTokenOnLine = false
                }
                index += 1
            case UInt8(ascii: "#"):
                while let b = peek(), !LineBreak.isLineEnd(b) { index += 1 }
            default:
                return
            }
        }
    }

    /// Digits, with a fractional part only when a digit follows the dot, so `1...2` lexes as `1`, `...`, `2`.
    private mutating func lexNumber() -> Token.Kind {
        while let b = peek(), b.isDigit { index += 1 }
        if peek() == UInt8(ascii: "."), let after = peek(1), after.isDigit {
            index += 1
            while let b = peek(), b.isDigit { index += 1 }
            return .decimal
        }
        return .integer
    }

    /// Reports a run of characters that start no token as one diagnostic and skips the run; invalid UTF-8
    /// and NUL bytes are named rather than printed.
    private mutating func skipStrayCharacters(start: SourceLocation) {
        var first: String? = nil
        var count = 0
        while index < bytes.count, bytes[index] != UInt8(ascii: "\n"),
            lexTokenStartsHere() == false, !bytes[index].isTrivia
        {
            var length = 1
            if bytes[index] >= 0xC0 {
                while index + length < bytes.count, length < 4, bytes[index + length] & 0xC0 == 0x80 { length += 1 }
            }
            if first == nil { first = describeCharacter(bytes[index..<index + length]) }
            index += length
            count += 1
        }
        report(.unexpectedCharacters(count, first: first ?? "", at: start))
    }

    private func lexTokenStartsHere() -> Bool {
        switch bytes[index] {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "}"),
            UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "="), UInt8(ascii: "<"), UInt8(ascii: ">"),
            UInt8(ascii: "#"):
            true
        case UInt8(ascii: "!"): true
        case UInt8(ascii: "&"): peek(1) == UInt8(ascii: "&")
        case UInt8(ascii: "|"): peek(1) == UInt8(ascii: "|")
        case UInt8(ascii: "-"): peek(1)?.isDigit == true
        case UInt8(ascii: "."): peek(1) == UInt8(ascii: ".") || peek(1)?.isIdentifierStart == true
        case UInt8(ascii: "+"): true
        case UInt8(ascii: "$"): peek(1)?.isDigit == true
        default: false
        }
    }

    /// The digits and dots from `start`, for a message.
    private func numberText(at start: Int) -> String {
        var end = start
        while end < bytes.count,
            bytes[end].isDigit
                || bytes[end] == UInt8(ascii: ".") && end + 1 < bytes.count
                    && bytes[end + 1].isDigit
        {
            end += 1
        }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private func describeCharacter(_ slice: ArraySlice<UInt8>) -> String {
        if slice.first == 0 { return "NUL" }
        let text = String(decoding: slice, as: UTF8.self)
        if text.unicodeScalars.contains("\u{FFFD}") || slice.first! < 0x20 {
            return "byte 0x" + String(slice.first!, radix: 16, uppercase: true)
        }
        return "'\(text)'"
    }
}

extension UInt8 {
    var isTrivia: Bool {
        self == UInt8(ascii: " ") || self == UInt8(ascii: "\t") || self == UInt8(ascii: "\r")
            || self == UInt8(ascii: "\n")
    }

    var isIdentifierStart: Bool {
        (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "z"))
            || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z"))
            || self == UInt8(ascii: "_")
    }

    var isIdentifierByte: Bool {
        isDigit || (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "z"))
            || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z")) || self == UInt8(ascii: "_")
    }
}

extension Diagnostic {
    fileprivate static func symbolForWord(_ spelling: String, word: String, at location: SourceLocation) -> Diagnostic {
        .error(.syntax, "write '\(word)' instead of '\(spelling)': conditions use the words and, or, not", at: location)
    }

    fileprivate static func unexpectedCharacters(_ count: Int, first: String, at location: SourceLocation) -> Diagnostic
    {
        .error(
            .syntax,
            count == 1 ? "unexpected character \(first)" : "\(count) unexpected characters, starting with \(first)",
            at: location)
    }

    /// `bits 4..5`: ranges are written with three dots.
    static func twoDotRange(lower: String, upper: String, at location: SourceLocation) -> Diagnostic {
        let example = lower.isEmpty || upper.isEmpty ? "'bits 4...5'" : "'\(lower)...\(upper)'"
        return .error(
            .syntax, "ranges use '...' (or '..<' for a bucket's half-open range): write \(example)", at: location)
    }

    /// `0..<$1`: an amount is a number alone.
    static func currencyInAmount(number: String, at location: SourceLocation) -> Diagnostic {
        .error(
            .syntax, "amounts have no unit: write '\(number)', not '$\(number)'", at: location)
    }
}
