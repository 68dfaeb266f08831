/// Writes JSON text with keys in the order given, so documents are stable byte for byte.
package enum JSONValue: Sendable {
    case string(String)
    case integer(Int)
    /// A finite number, written in its shortest form (`0.99`, `20`).
    case number(Double)
    /// A number as exact decimal text (`-`, digits, an optional fraction), written as it is.
    case decimal(String)
    case bool(Bool)
    case null
    case array([JSONValue])
    /// Keys in the order they are written.
    case object([(String, JSONValue)])

    package static func optional(_ text: String?) -> JSONValue {
        text.map(JSONValue.string) ?? .null
    }

    /// Two-space indentation, one member per line; arrays of scalars stay on one line.
    package func rendered(indent: String = "") -> String {
        var out = ""
        render(into: &out, indent: indent)
        return out
    }

    /// `rendered(indent:)` appended to `out`: one string grows, rather than one per value joined into the next.
    package func render(into out: inout String, indent: String) {
        switch self {
        case .string(let text): out += JSONString.quoted(text)
        case .integer(let value): out += String(value)
        case .number(let value):
            precondition(value.isFinite, "JSON has no infinity or NaN")
            out += value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        case .decimal(let text): out += text
        case .bool(let value): out += String(value)
        case .null: out += "null"
        case .array(let items):
            if items.isEmpty {
                out += "[]"
                return
            }
            if items.allSatisfy(\.isScalar) {
                out += "["
                for (index, item) in items.enumerated() {
                    if index > 0 { out += ", " }
                    item.render(into: &out, indent: "")
                }
                out += "]"
                return
            }
            let inner = indent + "  "
            out += "[\n"
            for (index, item) in items.enumerated() {
                if index > 0 { out += ",\n" }
                out += inner
                item.render(into: &out, indent: inner)
            }
            out += "\n\(indent)]"
        case .object(let members):
            if members.isEmpty {
                out += "{}"
                return
            }
            let inner = indent + "  "
            out += "{\n"
            for (index, member) in members.enumerated() {
                if index > 0 { out += ",\n" }
                out += inner + JSONString.quoted(member.0) + ": "
                member.1.render(into: &out, indent: inner)
            }
            out += "\n\(indent)}"
        }
    }

    /// One line, no spaces: for JSON lines output.
    package func compact() -> String {
        switch self {
        case .array(let items): return "[" + items.map { $0.compact() }.joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { JSONString.quoted($0.0) + ":" + $0.1.compact() }.joined(separator: ",") + "}"
        default: return rendered()
        }
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }
}
