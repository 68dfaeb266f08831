import SkanCore

/// JSON in one canonical form, so that equal values are equal bytes and a hash names them: members sorted by
/// key (bytewise UTF-8), no white space, strings as `JSONString` writes them, numbers whole only (a decimal is a
/// string). What the artifact and the manifest are written in.
enum CanonicalJSON: Equatable, Sendable {
    case string(String)
    case integer(Int)
    case bool(Bool)
    case null
    case array([CanonicalJSON])
    case object([String: CanonicalJSON])

    /// The value's canonical bytes.
    var bytes: [UInt8] {
        var out: [UInt8] = []
        write(into: &out)
        return out
    }

    private func write(into out: inout [UInt8]) {
        switch self {
        case .string(let text): JSONString.appendQuoted(text, to: &out)
        case .integer(let value): out.append(contentsOf: String(value).utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .null: out.append(contentsOf: "null".utf8)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
                .enumerated()
            {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONString.appendQuoted(key, to: &out)
                out.append(UInt8(ascii: ":"))
                members[key]!.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// `text` or null.
    static func optional(_ text: String?) -> CanonicalJSON { text.map(CanonicalJSON.string) ?? .null }

    /// A number the model keeps as a double, as decimal text that reads back as the same double: whole numbers
    /// without a fraction (`36`), others in their shortest form (`0.5`).
    static func decimal(_ value: Double) -> CanonicalJSON {
        if value == value.rounded(), abs(value) < 1e15 { return .string(String(Int(value))) }
        return .string(String(value))
    }
}
