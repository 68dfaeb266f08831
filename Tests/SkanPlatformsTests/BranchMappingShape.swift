import SkanCore

/// The document shape of Branch's Conversion Value Mapping Partner API spec (its "Schema" section; see
/// Fixtures/branch/README.md), checked key by key: what a network reading the API parses.
enum BranchMappingShape {
    static let postbackKeys = ["postback-sequence-index-0", "postback-sequence-index-1", "postback-sequence-index-2"]
    static let coarseValues = ["low", "medium", "high"]

    /// The JSON text parsed, or nil when it is not JSON.
    static func parse(_ text: String) -> JSONDocument? {
        var reader = JSONReader(bytes: Array(text.utf8), maximumDepth: 32, tooDeep: "too deep")
        return try? reader.document()
    }

    /// Every way `document` departs from the spec's shape, as key paths; empty when it keeps it.
    static func problems(in document: JSONDocument) -> [String] {
        guard case .object(let members) = document else { return ["not an object"] }
        var problems: [String] = []
        let keys = members.map(\.0)
        for key in keys where !["app-id", "update", "mapping", "ascending-only"].contains(key) {
            problems.append("\(key): not a key of the spec")
        }
        if case .number(let id)? = document["app-id"], id == id.rounded(), id > 0 {
        } else {
            problems.append("app-id: not a positive whole number")
        }
        if case .string(let time)? = document["update"], isUpdateTime(time) {
        } else {
            problems.append("update: not yyyy-mm-dd hh:mm:ss.sss")
        }
        guard case .object(let postbacks)? = document["mapping"] else { return problems + ["mapping: not an object"] }
        if postbacks.map(\.0) != postbackKeys { problems.append("mapping: keys \(postbacks.map(\.0))") }
        for (index, (key, values)) in postbacks.enumerated() {
            guard case .array(let values) = values else {
                problems.append("\(key): not an array")
                continue
            }
            for (position, value) in values.enumerated() {
                problems += conversionValueProblems(value, at: "\(key)[\(position)]", fine: index == 0)
            }
        }
        return problems
    }

    private static func conversionValueProblems(_ value: JSONDocument, at path: String, fine: Bool) -> [String] {
        guard case .object(let members) = value, members.map(\.0) == ["conversion-value", "conversion-event"] else {
            return ["\(path): not {conversion-value, conversion-event}"]
        }
        var problems: [String] = []
        if case .string(let text)? = value["conversion-value"],
            coarseValues.contains(text) || (fine && Int(text).map { (0...63).contains($0) } == true)
        {
        } else {
            problems.append("\(path).conversion-value: not \(fine ? "0-63 or " : "")low, medium, high")
        }
        guard case .array(let events)? = value["conversion-event"], !events.isEmpty else {
            return problems + ["\(path).conversion-event: not a non-empty array"]
        }
        for (position, event) in events.enumerated() {
            problems += eventProblems(event, at: "\(path).conversion-event[\(position)]")
        }
        return problems
    }

    private static func eventProblems(_ event: JSONDocument, at path: String) -> [String] {
        guard case .object(let members) = event, members.map(\.0) == ["values", "locked"],
            case .object(let values)? = event["values"]
        else { return ["\(path): not {values, locked}"] }
        var problems: [String] = []
        if case .bool? = event["locked"] {} else { problems.append("\(path).locked: not a boolean") }
        for (key, value) in values {
            switch (key, value) {
            case ("name", .array(let operands)):
                if operands.count == 2, case .string("eq") = operands[0], case .string(let name) = operands[1],
                    !name.isEmpty
                {
                } else {
                    problems.append("\(path).values.name: not [\"eq\", EVENT]")
                }
            case ("event_data.revenue", .array(let operands)):
                if operands.count == 3, case .string("between") = operands[0], case .number(let low) = operands[1],
                    case .number(let high) = operands[2], low == low.rounded(), high == high.rounded(), low <= high
                {
                } else {
                    problems.append("\(path).values.event_data.revenue: not [\"between\", LOW, HIGH] in whole numbers")
                }
            default:
                problems.append("\(path).values.\(key): not a key of the spec")
            }
        }
        if values.first?.0 != "name" { problems.append("\(path).values: no name first") }
        return problems
    }

    private static func isUpdateTime(_ text: String) -> Bool {
        let shape = Array("dddd-dd-dd dd:dd:dd.ddd".utf8)
        let bytes = Array(text.utf8)
        return bytes.count == shape.count
            && zip(bytes, shape).allSatisfy { byte, expected in
                expected == UInt8(ascii: "d") ? (0x30...0x39).contains(byte) : byte == expected
            }
    }
}
