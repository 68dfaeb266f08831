import SkanCore
import SkanSchema

extension SchemaArtifact {
    /// A condition as `encode(_: Condition)` writes it; every field and event index in range.
    static func decodeCondition(_ node: Member, scope: Scope) throws(Invalid) -> Condition {
        func comparison() throws(Invalid) -> ComparisonOperator {
            guard let comparison = ComparisonOperator(rawValue: try node["cmp"].string()) else {
                throw Invalid(message: "\(node.path).cmp is one of == != < <= > >=")
            }
            return comparison
        }
        func parts() throws(Invalid) -> [Condition] {
            try node["of"].items { part throws(Invalid) in try decodeCondition(part, scope: scope) }
        }
        switch try node["op"].string() {
        case "always": return .always
        case "flag": return .flag(field: try node["field"].index(below: scope.fields))
        case "compare":
            return .comparison(
                field: try node["field"].index(below: scope.fields), try comparison(),
                code: try node["code"].integer(in: 0...63))
        case "event": return .event(try node["event"].index(below: scope.events))
        case "event_count", "event_sum":
            let measure: Condition.EventMeasure = try node["op"].string() == "event_count" ? .count : .sum
            return .eventMeasure(
                event: try node["event"].index(below: scope.events), measure, try comparison(),
                try node["value"].decimal())
        case "hours": return .hours(try comparison(), try node["value"].decimal())
        case "not": return .not(try decodeCondition(node["of"], scope: scope))
        case "all": return .all(try parts())
        case "any": return .any(try parts())
        default:
            throw Invalid(
                message:
                    "\(node.path).op is always, flag, compare, event, event_count, event_sum, hours, not, all or any")
        }
    }
}

/// A member of an artifact being read, with its path for errors; a missing member reads as null.
struct Member {
    let value: JSONDocument?
    let path: String

    init(_ value: JSONDocument?, path: String) {
        self.value = value
        self.path = path
    }

    subscript(key: String) -> Member {
        Member(value?[key], path: path.isEmpty ? key : "\(path).\(key)")
    }

    var isNull: Bool {
        guard let value, case .null = value else { return value == nil }
        return true
    }

    private func wrong(_ expected: String) -> SchemaArtifact.Invalid {
        SchemaArtifact.Invalid(message: "\(path.isEmpty ? "the document" : path) is \(expected)")
    }

    func string() throws(SchemaArtifact.Invalid) -> String {
        guard case .string(let text)? = value else { throw wrong("a string") }
        return text
    }

    func optionalString() throws(SchemaArtifact.Invalid) -> String? {
        isNull ? nil : try string()
    }

    func bool() throws(SchemaArtifact.Invalid) -> Bool {
        guard case .bool(let flag)? = value else { throw wrong("true or false") }
        return flag
    }

    func integer() throws(SchemaArtifact.Invalid) -> Int {
        guard case .number(let number)? = value, number == number.rounded(), abs(number) < 1e15 else {
            throw wrong("a whole number")
        }
        return Int(number)
    }

    func integer(in range: ClosedRange<Int>) throws(SchemaArtifact.Invalid) -> Int {
        let number = try integer()
        guard range.contains(number) else { throw wrong("a whole number in \(range.lowerBound)...\(range.upperBound)") }
        return number
    }

    /// An index into a list of `count` items.
    func index(below count: Int) throws(SchemaArtifact.Invalid) -> Int {
        let number = try integer()
        guard number >= 0, number < count else { throw wrong("an index below \(count)") }
        return number
    }

    /// A decimal written as text (`36`, `0.5`), finite.
    func decimal() throws(SchemaArtifact.Invalid) -> Double {
        guard let number = Double(try string()), number.isFinite else { throw wrong("a decimal number as text") }
        return number
    }

    /// Each item of an array, read by `read`.
    func items<Item>(_ read: (Member) throws(SchemaArtifact.Invalid) -> Item) throws(SchemaArtifact.Invalid) -> [Item] {
        var result: [Item] = []
        for item in try array() { result.append(try read(item)) }
        return result
    }

    func array() throws(SchemaArtifact.Invalid) -> [Member] {
        guard case .array(let items)? = value else { throw wrong("an array") }
        return items.enumerated().map { Member($1, path: "\(path)[\($0)]") }
    }
}
