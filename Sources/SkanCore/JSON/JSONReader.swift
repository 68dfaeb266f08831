/// A JSON value as read: strings, finite numbers, Booleans, null, arrays and objects (members in the order
/// written; of repeated keys the last wins, as `skanc postbacks` reads JSON).
package enum JSONDocument: Sendable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONDocument])
    case object([(String, JSONDocument)])

    /// The member `key` of an object; nil for a missing key or a value that is not an object.
    package subscript(key: String) -> JSONDocument? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.0 == key }?.1
    }
}

/// Reads one JSON value (RFC 8259) from bytes, containers nested at most `maximumDepth` deep (recursion is
/// bounded by it), numbers finite and as JSON writes them (no leading zeros, no bare dot, no `+`). Errors say
/// what was expected where.
package struct JSONReader {
    /// Why the bytes are not JSON.
    package struct Malformed: Error, Equatable {
        package var message: String
    }

    package let bytes: [UInt8]
    /// Where reading stands: after `value()`, just past the value.
    package private(set) var index = 0
    let maximumDepth: Int
    let tooDeep: String
    /// Whether an object keeps every member of a repeated key, for a caller that refuses them; else the last wins.
    let keepsRepeatedKeys: Bool

    /// A reader of `bytes`; containers nested deeper than `maximumDepth` fail with `tooDeep`.
    package init(bytes: [UInt8], maximumDepth: Int, tooDeep: String, keepsRepeatedKeys: Bool = false) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        self.tooDeep = tooDeep
        self.keepsRepeatedKeys = keepsRepeatedKeys
    }

    /// The value at the reading position (after white space).
    package mutating func value() throws(Malformed) -> JSONDocument {
        try value(depth: 0)
    }

    /// The whole text as one value, with nothing after it but white space.
    package mutating func document() throws(Malformed) -> JSONDocument {
        let result = try value()
        skipSpace()
        guard index == bytes.count else { throw Malformed(message: "text after the JSON value") }
        return result
    }

    private mutating func value(depth: Int) throws(Malformed) -> JSONDocument {
        skipSpace()
        guard index < bytes.count else { throw Malformed(message: "the text ends where a value should be") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            guard depth < maximumDepth else { throw Malformed(message: tooDeep) }
            return .object(try members(depth: depth))
        case UInt8(ascii: "["):
            guard depth < maximumDepth else { throw Malformed(message: tooDeep) }
            return .array(try elements(depth: depth))
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try number())
        default:
            for (word, result) in [("true", JSONDocument.bool(true)), ("false", .bool(false)), ("null", .null)]
            where bytes[index...].starts(with: word.utf8) {
                index += word.utf8.count
                return result
            }
            throw Malformed(message: "expected a value")
        }
    }

    private mutating func members(depth: Int) throws(Malformed) -> [(String, JSONDocument)] {
        index += 1
        var members: [(String, JSONDocument)] = []
        // Where each key was last put, and the members a later one replaced: found in constant time, so that an
        // object of many keys reads in linear time.
        var positions: [String: Int] = [:]
        var replaced: Set<Int> = []
        skipSpace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return members
        }
        while true {
            skipSpace()
            guard peek() == UInt8(ascii: "\"") else { throw Malformed(message: "expected a key in quotes") }
            let key = try string()
            skipSpace()
            guard peek() == UInt8(ascii: ":") else { throw Malformed(message: "expected ':' after \"\(key)\"") }
            index += 1
            let member = try value(depth: depth + 1)
            if !keepsRepeatedKeys, let earlier = positions.updateValue(members.count, forKey: key) {
                replaced.insert(earlier)
            }
            members.append((key, member))
            skipSpace()
            if peek() == UInt8(ascii: ",") {
                index += 1
            } else if peek() == UInt8(ascii: "}") {
                index += 1
                return replaced.isEmpty
                    ? members : members.indices.filter { !replaced.contains($0) }.map { members[$0] }
            } else {
                throw Malformed(message: "expected ',' or '}'")
            }
        }
    }

    private mutating func elements(depth: Int) throws(Malformed) -> [JSONDocument] {
        index += 1
        var elements: [JSONDocument] = []
        skipSpace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return elements
        }
        while true {
            elements.append(try value(depth: depth + 1))
            skipSpace()
            if peek() == UInt8(ascii: ",") {
                index += 1
            } else if peek() == UInt8(ascii: "]") {
                index += 1
                return elements
            } else {
                throw Malformed(message: "expected ',' or ']'")
            }
        }
    }

    private mutating func string() throws(Malformed) -> String {
        index += 1
        // The string's UTF-8, escapes written into it as they are read: one buffer, decoded once, so a long
        // string with many escapes (a document's text, a line feed every line) reads in linear time.
        var utf8: [UInt8] = []
        func append(_ scalar: Unicode.Scalar) {
            utf8.append(contentsOf: UTF8.encode(scalar)!)
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "u"):
                    append(try escapedScalar())
                default: throw Malformed(message: "unknown escape in a string")
                }
            case 0..<0x20:
                throw Malformed(message: "a control character inside a string; escape it")
            default:
                utf8.append(byte)
            }
        }
        throw Malformed(message: "a string is not closed")
    }

    /// The character of a `\u` escape whose `u` was read: one UTF-16 unit, or a surrogate pair written as two
    /// escapes (`\ud83c\udf89` is 🎉, as JSON's RFC 8259 writes characters beyond the BMP). A lone surrogate is no
    /// character: an error, never a replacement character that would end up in the user's file.
    private mutating func escapedScalar() throws(Malformed) -> Unicode.Scalar {
        let high = try hexUnit()
        guard (0xD800...0xDFFF).contains(high) else { return Unicode.Scalar(high)! }
        guard high <= 0xDBFF, index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"),
            bytes[index + 1] == UInt8(ascii: "u")
        else { throw Malformed(message: Self.loneSurrogate(high)) }
        index += 2
        let low = try hexUnit()
        guard (0xDC00...0xDFFF).contains(low) else { throw Malformed(message: Self.loneSurrogate(high)) }
        return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
    }

    /// Four hex digits after `\u`, as a UTF-16 unit.
    private mutating func hexUnit() throws(Malformed) -> UInt32 {
        guard index + 4 <= bytes.count else { throw Malformed(message: "a \\u escape needs four hex digits") }
        var unit: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = Self.hexDigit(byte) else {
                throw Malformed(message: "a \\u escape needs four hex digits")
            }
            unit = unit << 4 | digit
        }
        index += 4
        return unit
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private static func loneSurrogate(_ unit: UInt32) -> String {
        let hex = String(unit, radix: 16)
        return "\\u\(hex) is half of a UTF-16 surrogate pair with no other half: escape both halves "
            + "(\\ud83c\\udf89) or write the character itself"
    }

    private mutating func number() throws(Malformed) -> Double {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        while let byte = peek(),
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-")
        {
            index += 1
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard Self.isJSONNumber(text) else { throw Malformed(message: "'\(text.prefix(40))' is not a JSON number") }
        // Valid JSON, but past what any configuration means: said as such, not as "not a number".
        guard text.utf8.count <= Self.maximumNumberLength else {
            throw Malformed(
                message: "a number of \(text.utf8.count) characters ('\(text.prefix(20))…'); numbers are read up to "
                    + "\(Self.maximumNumberLength)")
        }
        guard let value = Double(text), value.isFinite else {
            throw Malformed(message: "'\(text.prefix(40))' is beyond the range of a double (about 1.8e308)")
        }
        return value
    }

    /// The longest number read (digits, sign, point and exponent): a 52-digit integer is JSON and reads.
    static let maximumNumberLength = 400

    /// JSON's number grammar: no leading zeros, no bare dot, no `+` in front.
    static func isJSONNumber(_ text: String) -> Bool {
        var digits = Substring(text)
        if digits.first == "-" { digits = digits.dropFirst() }
        guard let first = digits.first, first.isNumber else { return false }
        if first == "0", let second = digits.dropFirst().first, second.isNumber { return false }
        if let dot = digits.firstIndex(of: ".") {
            let after = digits[digits.index(after: dot)...]
            guard after.first?.isNumber == true else { return false }
        }
        return true
    }

    func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    package mutating func skipSpace() {
        while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A { index += 1 }
    }
}
