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
        switch self {
        case .string(let text): return JSONString.quoted(text)
        case .integer(let value): return String(value)
        case .number(let value):
            precondition(value.isFinite, "JSON has no infinity or NaN")
            return value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        case .decimal(let text): return text
        case .bool(let value): return String(value)
        case .null: return "null"
        case .array(let items):
            if items.isEmpty { return "[]" }
            if items.allSatisfy(\.isScalar) { return "[" + items.map { $0.rendered() }.joined(separator: ", ") + "]" }
            let inner = indent + "  "
            return "[\n" + items.map { inner + $0.rendered(indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case .object(let members):
            if members.isEmpty { return "{}" }
            let inner = indent + "  "
            return "{\n"
                + members.map { inner + JSONString.quoted($0.0) + ": " + $0.1.rendered(indent: inner) }
                .joined(separator: ",\n") + "\n\(indent)}"
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
