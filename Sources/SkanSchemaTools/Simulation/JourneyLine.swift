import SkanCompiler
import SkanCore

/// One line of a journey, read: `{"hour": 3.5, "event": "purchase", "value": 4.99}`, `{"hour": 5, "set":
/// {"paymentTier": "medium"}}` or `{"hour": 50}`. A JSON object of these keys only, its numbers finite, nothing
/// after it but white space and a `#` comment.
struct JourneyLine: Equatable {
    var hour: Double
    var event: String?
    var value: Double?
    var set: [(field: String, caseName: String)]

    static func == (left: JourneyLine, right: JourneyLine) -> Bool {
        left.hour == right.hour && left.event == right.event && left.value == right.value
            && left.set.map(\.field) == right.set.map(\.field) && left.set.map(\.caseName) == right.set.map(\.caseName)
    }

    /// Why a line is not a journey line, in words that say what to write.
    struct Malformed: Error, Equatable {
        var message: String
    }

    static func read(_ bytes: ArraySlice<UInt8>) throws(Malformed) -> JourneyLine {
        var reader = ObjectReader(bytes: Array(bytes))
        let members = try reader.object()
        var hour: Double?
        var line = JourneyLine(hour: 0, event: nil, value: nil, set: [])
        for (key, value) in members {
            switch (key, value) {
            case ("hour", .number(let number)):
                guard number >= 0 else {
                    throw Malformed(
                        message: "\"hour\" is \(ConditionNumber.text(number)); hours count from 0 at first launch")
                }
                hour = number
            case ("event", .string(let name)): line.event = name
            case ("value", .number(let number)): line.value = number
            case ("set", .object(let pairs)):
                for (field, caseValue) in pairs {
                    guard case .string(let caseName) = caseValue else {
                        throw Malformed(
                            message: "\"set\" names each field's case as a string: {\"\(field)\": \"case\"}")
                    }
                    line.set.append((field, caseName))
                }
            case ("hour", _), ("value", _):
                throw Malformed(message: "\"\(key)\" must be a number")
            case ("event", _):
                throw Malformed(message: "\"event\" must be an event's name, a string")
            case ("set", _):
                throw Malformed(message: "\"set\" must be an object of field names and cases: {\"tier\": \"medium\"}")
            default:
                throw Malformed(
                    message:
                        "unknown key \"\(TerminalText.visible(key))\"; a journey line has hour, event, value and set")
            }
        }
        guard let hour else { throw Malformed(message: "no \"hour\"; every line says when: {\"hour\": 2.5, ...}") }
        line.hour = hour
        return line
    }
}

/// A JSON value as journey lines use it: strings, finite numbers and one level of objects.
enum JourneyValue {
    case string(String)
    case number(Double)
    case object([(String, JourneyValue)])
    case other
}

/// Reads one JSON object (RFC 8259) whose values are strings, numbers, Booleans, null or objects of those, at most
/// two levels deep; anything else, and anything after the object but white space and a `#` comment, is malformed.
private struct ObjectReader {
    let bytes: [UInt8]
    var index = 0

    mutating func object() throws(JourneyLine.Malformed) -> [(String, JourneyValue)] {
        skipSpace()
        guard peek() == UInt8(ascii: "{"), case .object(let members) = try value(depth: 0) else {
            throw JourneyLine.Malformed(
                message: "a journey line is a JSON object: {\"hour\": 0.5, \"event\": \"sign_up\"}")
        }
        skipSpace()
        if index < bytes.count, bytes[index] != UInt8(ascii: "#") {
            throw JourneyLine.Malformed(message: "text after the object; one object per line")
        }
        return members
    }

    mutating func value(depth: Int) throws(JourneyLine.Malformed) -> JourneyValue {
        skipSpace()
        guard index < bytes.count else { throw malformed("the line ends inside the object") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            guard depth < 2 else { throw malformed("objects nest at most two deep in a journey line") }
            index += 1
            var members: [(String, JourneyValue)] = []
            skipSpace()
            if peek() == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard peek() == UInt8(ascii: "\"") else { throw malformed("expected a key in quotes") }
                let key = try string()
                skipSpace()
                guard peek() == UInt8(ascii: ":") else { throw malformed("expected ':' after \"\(key)\"") }
                index += 1
                let member = try value(depth: depth + 1)
                // The last of repeated keys wins, as `skanc postbacks` reads JSON.
                members.removeAll { $0.0 == key }
                members.append((key, member))
                skipSpace()
                if peek() == UInt8(ascii: ",") {
                    index += 1
                } else if peek() == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                } else {
                    throw malformed("expected ',' or '}'")
                }
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try number())
        default:
            for word in ["true", "false", "null"] where bytes[index...].starts(with: word.utf8) {
                index += word.utf8.count
                return .other
            }
            throw malformed("expected a value")
        }
    }

    mutating func string() throws(JourneyLine.Malformed) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
            run = []
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush()
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(Unicode.Scalar(escape))
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "b"): scalars.append("\u{8}")
                case UInt8(ascii: "f"): scalars.append("\u{C}")
                case UInt8(ascii: "u"):
                    guard index + 4 <= bytes.count,
                        let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
                    else { throw malformed("a \\u escape needs four hex digits") }
                    index += 4
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                default: throw malformed("unknown escape in a string")
                }
            case 0..<0x20:
                throw malformed("a control character inside a string; escape it")
            default:
                run.append(byte)
            }
        }
        throw malformed("a string is not closed")
    }

    mutating func number() throws(JourneyLine.Malformed) -> Double {
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
        guard text.count <= 40, let value = Double(text), value.isFinite, Self.isJSONNumber(text) else {
            throw malformed("'\(text.prefix(40))' is not a JSON number")
        }
        return value
    }

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

    mutating func skipSpace() {
        while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A { index += 1 }
    }

    func malformed(_ what: String) -> JourneyLine.Malformed {
        JourneyLine.Malformed(message: "not a JSON object: \(what)")
    }
}
