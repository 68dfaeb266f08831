import SkanCore

/// One line of a journey, read: `{"hour": 3.5, "event": "purchase", "value": 4.99}`, `{"hour": 5, "set":
/// {"paymentTier": "medium"}}` or `{"hour": 50}`. A JSON object of these keys only, its numbers finite, nothing
/// after it but white space and a `#` comment.
package struct JourneyLine: Equatable {
    var hour: Double
    var event: String?
    var value: Double?
    var set: [(field: String, caseName: String)]

    package static func == (left: JourneyLine, right: JourneyLine) -> Bool {
        left.hour == right.hour && left.event == right.event && left.value == right.value
            && left.set.map(\.field) == right.set.map(\.field) && left.set.map(\.caseName) == right.set.map(\.caseName)
    }

    /// Why a line is not a journey line, in words that say what to write.
    package struct Malformed: Error, Equatable {
        var message: String
    }

    static func read(_ bytes: ArraySlice<UInt8>) throws(Malformed) -> JourneyLine {
        let members = try ObjectReader(bytes: Array(bytes)).object()
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

/// Reads the one JSON object of a journey line (`JSONReader`, objects at most two deep): anything else, and
/// anything after the object but white space and a `#` comment, is malformed.
private struct ObjectReader {
    let bytes: [UInt8]

    func object() throws(JourneyLine.Malformed) -> [(String, JSONDocument)] {
        let notAnObject = JourneyLine.Malformed(
            message: "a journey line is a JSON object: {\"hour\": 0.5, \"event\": \"sign_up\"}")
        guard bytes.first(where: { ![0x20, 0x09, 0x0D, 0x0A].contains($0) }) == UInt8(ascii: "{") else {
            throw notAnObject
        }
        var reader = JSONReader(
            bytes: bytes, maximumDepth: 2, tooDeep: "objects nest at most two deep in a journey line")
        let value: JSONDocument
        do {
            value = try reader.value()
        } catch {
            throw JourneyLine.Malformed(message: "not a JSON object: \(error.message)")
        }
        guard case .object(let members) = value else { throw notAnObject }
        reader.skipSpace()
        if reader.index < bytes.count, bytes[reader.index] != UInt8(ascii: "#") {
            throw JourneyLine.Malformed(message: "text after the object; one object per line")
        }
        return members
    }
}
