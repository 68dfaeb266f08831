/// Writes JSON text with keys in the order given, so documents are stable byte for byte.
package enum JSONValue: Sendable {
    case string(String)
    case integer(Int)
    /// A finite number, written in its shortest form (`0.99`, `20`).
    case number(Double)
    /// A number as exact decimal text (`-`, digits, an optional fraction), written as it is.
    case decimal(String)
    /// JSON text as UTF-8, rendered already at the depth it is written at, written as it is.
    case rendered([UInt8])
    case bool(Bool)
    case null
    case array([JSONValue])
    /// Keys in the order they are written.
    case object([(String, JSONValue)])

    package static func optional(_ text: String?) -> JSONValue {
        text.map(JSONValue.string) ?? .null
    }

    /// Two-space indentation, one member per line; arrays of scalars stay on one line.
    package func rendered() -> String {
        var out: [UInt8] = []
        render(into: &out, indent: 0)
        return String(decoding: out, as: UTF8.self)
    }

    /// `rendered()` as UTF-8 appended to `out`, `indent` spaces deep: one byte array grows, rather than
    /// one string per value joined into the next (a report of thousands of campaigns is tens of megabytes).
    package func render(into out: inout [UInt8], indent: Int) {
        switch self {
        case .string(let text): JSONString.appendQuoted(text, to: &out)
        case .integer(let value): out.appendDecimal(value)
        case .number(let value):
            precondition(value.isFinite, "JSON has no infinity or NaN")
            if value == value.rounded() && abs(value) < 1e15 {
                out.appendDecimal(Int(value))
            } else {
                out.append(contentsOf: String(value).utf8)
            }
        case .decimal(let text): out.append(contentsOf: text.utf8)
        case .rendered(let text): out.append(contentsOf: text)
        case .bool(let value): out.append(contentsOf: value ? "true".utf8 : "false".utf8)
        case .null: out.append(contentsOf: "null".utf8)
        case .array(let items):
            if items.isEmpty { return out.append(contentsOf: "[]".utf8) }
            if items.allSatisfy(\.isScalar) {
                out.append(UInt8(ascii: "["))
                for (index, item) in items.enumerated() {
                    if index > 0 { out.append(contentsOf: ", ".utf8) }
                    item.render(into: &out, indent: 0)
                }
                return out.append(UInt8(ascii: "]"))
            }
            out.append(contentsOf: "[\n".utf8)
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(contentsOf: ",\n".utf8) }
                out.append(contentsOf: repeatElement(0x20, count: indent + 2))
                item.render(into: &out, indent: indent + 2)
            }
            Self.close(UInt8(ascii: "]"), indent, &out)
        case .object(let members):
            if members.isEmpty { return out.append(contentsOf: "{}".utf8) }
            out.append(contentsOf: "{\n".utf8)
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(contentsOf: ",\n".utf8) }
                out.append(contentsOf: repeatElement(0x20, count: indent + 2))
                JSONString.appendQuoted(member.0, to: &out)
                out.append(contentsOf: ": ".utf8)
                member.1.render(into: &out, indent: indent + 2)
            }
            Self.close(UInt8(ascii: "}"), indent, &out)
        }
    }

    private static func close(_ bracket: UInt8, _ indent: Int, _ out: inout [UInt8]) {
        out.append(0x0A)
        out.append(contentsOf: repeatElement(0x20, count: indent))
        out.append(bracket)
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
        case .array, .object, .rendered: false
        default: true
        }
    }
}
