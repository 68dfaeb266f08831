import SkanCore

/// JSON as `skanc postbacks` reads it (RFC 8259, nothing more): no trailing commas, nothing after the value,
/// the last of repeated keys wins, any depth of nesting (read with a stack of its own, not recursion), a lone
/// surrogate escape read as U+FFFD, and numbers decided on their text: an integer is kept only when its exact
/// value is whole and has at most 18 digits (`20.0`, `2e1`); `1e-400`, `0.99999999999999999999` and
/// `12345678901234567.5` are not whole, `1e400` is too large. No floating point is involved.
enum StrictJSON {
    struct Malformed: Error {}

    /// The value of `bytes`, one JSON text.
    static func parse(_ bytes: [UInt8]) throws(Malformed) -> JSONValue {
        var reader = Reader(bytes: bytes)
        let value = try reader.document()
        return value
    }

    /// A number that is not a whole number of at most 18 digits.
    enum Inexact: Equatable {
        case notWhole, tooLarge
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        /// What is being built: an array's elements, or an object's members and the key awaiting its value.
        enum Frame {
            case array([JSONValue])
            case object([String: JSONValue], key: String?)
        }

        mutating func document() throws(Malformed) -> JSONValue {
            var stack: [Frame] = []
            var finished: JSONValue? = nil
            while true {
                skipSpace()
                var value: JSONValue
                // A value, or the end of an empty container.
                switch peek() {
                case UInt8(ascii: "{"):
                    index += 1
                    skipSpace()
                    if peek() == UInt8(ascii: "}") {
                        index += 1
                        value = .object([:])
                    } else {
                        stack.append(.object([:], key: try key()))
                        continue
                    }
                case UInt8(ascii: "["):
                    index += 1
                    skipSpace()
                    if peek() == UInt8(ascii: "]") {
                        index += 1
                        value = .array([])
                    } else {
                        stack.append(.array([]))
                        continue
                    }
                case UInt8(ascii: "\""): value = .string(try string())
                case UInt8(ascii: "t"): value = try literal("true", .bool(true))
                case UInt8(ascii: "f"): value = try literal("false", .bool(false))
                case UInt8(ascii: "n"): value = try literal("null", .null)
                default: value = try number()
                }
                // Close every container the value completes.
                while true {
                    guard let frame = stack.popLast() else {
                        finished = value
                        break
                    }
                    skipSpace()
                    switch frame {
                    case .array(var elements):
                        elements.append(value)
                        if accept(UInt8(ascii: ",")) {
                            stack.append(.array(elements))
                        } else if accept(UInt8(ascii: "]")) {
                            value = .array(elements)
                            continue
                        } else {
                            throw Malformed()
                        }
                    case .object(var members, let pending):
                        guard let pending else { throw Malformed() }
                        members[pending] = value
                        if accept(UInt8(ascii: ",")) {
                            skipSpace()
                            stack.append(.object(members, key: try key()))
                        } else if accept(UInt8(ascii: "}")) {
                            value = .object(members)
                            continue
                        } else {
                            throw Malformed()
                        }
                    }
                    break
                }
                if let finished {
                    skipSpace()
                    guard index == bytes.count else { throw Malformed() }
                    return finished
                }
            }
        }

        func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func accept(_ byte: UInt8) -> Bool {
            guard peek() == byte else { return false }
            index += 1
            return true
        }

        mutating func skipSpace() {
            while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        /// `"name" :`
        mutating func key() throws(Malformed) -> String {
            guard peek() == UInt8(ascii: "\"") else { throw Malformed() }
            let name = try string()
            skipSpace()
            guard accept(UInt8(ascii: ":")) else { throw Malformed() }
            return name
        }

        mutating func literal(_ word: String, _ value: JSONValue) throws(Malformed) -> JSONValue {
            let spelling = Array(word.utf8)
            guard index + spelling.count <= bytes.count, bytes[index..<index + spelling.count].elementsEqual(spelling)
            else { throw Malformed() }
            index += spelling.count
            return value
        }

        mutating func string() throws(Malformed) -> String {
            index += 1  // the opening quote
            var scalars = String.UnicodeScalarView()
            var pendingHigh: UInt32? = nil
            func flushHigh() {
                if pendingHigh != nil { scalars.append("\u{FFFD}") }
                pendingHigh = nil
            }
            var start = index
            while true {
                guard let byte = peek() else { throw Malformed() }
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 {
                    if index > start {
                        flushHigh()
                        scalars.append(contentsOf: String(decoding: bytes[start..<index], as: UTF8.self).unicodeScalars)
                    }
                    guard byte >= 0x20 else { throw Malformed() }
                    index += 1
                    if byte == UInt8(ascii: "\"") {
                        flushHigh()
                        return String(scalars)
                    }
                    guard let escape = peek() else { throw Malformed() }
                    index += 1
                    let simple: Unicode.Scalar? =
                        switch escape {
                        case UInt8(ascii: "\""): "\""
                        case UInt8(ascii: "\\"): "\\"
                        case UInt8(ascii: "/"): "/"
                        case UInt8(ascii: "b"): "\u{8}"
                        case UInt8(ascii: "f"): "\u{C}"
                        case UInt8(ascii: "n"): "\n"
                        case UInt8(ascii: "r"): "\r"
                        case UInt8(ascii: "t"): "\t"
                        default: nil
                        }
                    if let simple {
                        flushHigh()
                        scalars.append(simple)
                    } else {
                        guard escape == UInt8(ascii: "u"), index + 4 <= bytes.count,
                            let unit = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16),
                            bytes[index..<index + 4].allSatisfy({ Self.isHexDigit($0) })
                        else { throw Malformed() }
                        index += 4
                        if (0xD800...0xDBFF).contains(unit) {
                            flushHigh()
                            pendingHigh = unit
                        } else if (0xDC00...0xDFFF).contains(unit), let high = pendingHigh {
                            scalars.append(Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00))!)
                            pendingHigh = nil
                        } else {
                            flushHigh()
                            scalars.append(Unicode.Scalar(unit) ?? "\u{FFFD}")
                        }
                    }
                    start = index
                } else {
                    index += 1
                }
            }
        }

        static func isHexDigit(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }

        /// A number in JSON's grammar, decided exactly.
        mutating func number() throws(Malformed) -> JSONValue {
            let start = index
            _ = accept(UInt8(ascii: "-"))
            let integerStart = index
            guard let first = peek(), first.isDigit else { throw Malformed() }
            while let byte = peek(), byte.isDigit { index += 1 }
            // No leading zeros: `01` is not JSON.
            if first == UInt8(ascii: "0"), index - integerStart > 1 { throw Malformed() }
            if accept(UInt8(ascii: ".")) {
                guard let byte = peek(), byte.isDigit else { throw Malformed() }
                while let byte = peek(), byte.isDigit { index += 1 }
            }
            if accept(UInt8(ascii: "e")) || accept(UInt8(ascii: "E")) {
                _ = accept(UInt8(ascii: "+")) || accept(UInt8(ascii: "-"))
                guard let byte = peek(), byte.isDigit else { throw Malformed() }
                while let byte = peek(), byte.isDigit { index += 1 }
            }
            return Self.exact(bytes[start..<index])
        }

        /// The number, decided exactly as the postbacks engine decides it.
        static func exact(_ token: ArraySlice<UInt8>) -> JSONValue {
            switch token.withUnsafeBufferPointer({ JSONInteger.read($0, 0, $0.count) }) {
            case .value(let value): .integer(value)
            case .notWhole: .number(.notWhole)
            case .tooLarge: .number(.tooLarge)
            }
        }
    }
}
