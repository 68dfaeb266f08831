import SkanCompiler
package import SkanCore
public import SkanSchema

extension ValueExplanation {
    /// "an" before a name that starts with a vowel (an Adjust63 value), else "a".
    package static func article(before name: String) -> String {
        guard let first = name.unicodeScalars.first else { return "a" }
        return "aeiouAEIOU".unicodeScalars.contains(first) ? "an" : "a"
    }

    /// A few lines for a terminal.
    public func text(schema: Schema) -> String {
        let name = "\(schema.name) v\(schema.version)"
        switch self {
        case .unreadable(let text):
            return
                "'\(TerminalText.visible(text))': not a value: write a fine value (0...63) or a coarse value (low, medium, high)\n"
        case .fine(let value, .failure(let error), _, _):
            return "\(value): not \(Self.article(before: name)) \(name) fine value: \(error)\n"
        case .fine(let value, .success(let fields), let coarse, let lock):
            let width = fields.map(\.field.name.count).max() ?? 0
            var out = "\(value) (bits \(DecodingTable.bits(of: value))): \(name)\n"
            for item in fields {
                let padded = item.field.name + String(repeating: " ", count: width - item.field.name.count)
                var line = "  \(padded)  \(item.fieldCase.name)"
                let notes = [
                    item.field.description, item.fieldCase.description, item.fieldCase.bucket.map { "covers \($0)" },
                    schema.derivationText(of: item.field).map { "derived: \($0)" },
                ].compactMap { $0 }
                if !notes.isEmpty { line += "  (" + notes.map(oneLine).joined(separator: "; ") + ")" }
                out += line + "\n"
            }
            out +=
                "  coarse: "
                + zip(ConversionWindow.allCases, coarse).map {
                    "window \($0) \($1 ?? "by events and time (\(schema.rulesText(window: $0)))")"
                }.joined(separator: ", ") + "\n"
            let locked = zip(ConversionWindow.allCases, lock).filter { $0.1 == true }.map { "window \($0.0)" }
            let depends = zip(ConversionWindow.allCases, lock).filter { $0.1 == nil }.map {
                "window \($0.0) by events and time (\(schema.lockCondition(window: $0.0).map(schema.text(of:)) ?? ""))"
            }
            out += "  lock: " + (locked + depends).joinedOr("never") + "\n"
            return out
        case .coarse(let value, let window, let rule, let fineValues):
            let states = fineValues.count == 1 ? "1 state" : "\(fineValues.count) states"
            var out =
                "\(value.rawValue) in window \(window): " + (rule.isEmpty ? "no rule gives this value" : rule) + "\n"
            out +=
                "  \(states)"
                + (fineValues.isEmpty
                    ? "\n" : ": fine values " + fineValues.map(String.init).joined(separator: ", ") + "\n")
            return out
        }
    }

    /// One JSON object, as `skanc decode --format json` prints in an array.
    /// `json()` with the version the value was decoded with, when several versions are live.
    package func json(schemaVersion: Int) -> JSONValue {
        guard case .object(let members) = json() else { return json() }
        return .object(members + [("schema_version", .integer(schemaVersion))])
    }

    package func json() -> JSONValue {
        switch self {
        case .unreadable(let text):
            return .object([
                ("input", .string(text)), ("kind", .string("unknown")), ("valid", .bool(false)),
                ("reason", .string("not a fine value (0...63) or a coarse value (low, medium, high)")),
            ])
        case .fine(let value, .failure(let error), _, _):
            return .object([
                ("input", .string(String(value))), ("kind", .string("fine")), ("fine_value", .integer(value)),
                ("valid", .bool(false)), ("problem", .string(error.code)), ("reason", .string(error.description)),
            ])
        case .fine(let value, .success(let fields), let coarse, let lock):
            return .object([
                ("input", .string(String(value))), ("kind", .string("fine")), ("fine_value", .integer(value)),
                ("valid", .bool(true)), ("bits", .string(DecodingTable.bits(of: value))),
                (
                    "fields",
                    .object(
                        fields.map { item in
                            (
                                item.field.name,
                                .object([
                                    ("case", .string(item.fieldCase.name)), ("code", .integer(item.fieldCase.code)),
                                    ("description", .optional(item.fieldCase.description)),
                                ])
                            )
                        })
                ),
                ("coarse", .array(coarse.map { $0.map(JSONValue.string) ?? .null })),
                ("lock", .array(lock.map { $0.map(JSONValue.bool) ?? .null })),
            ])
        case .coarse(let value, let window, let rule, let fineValues):
            return .object([
                ("input", .string(value.rawValue)), ("kind", .string("coarse")), ("window", .integer(window.number)),
                ("valid", .bool(true)), ("rule", .string(rule)),
                ("fine_values", .array(fineValues.map(JSONValue.integer))),
            ])
        }
    }

    private func oneLine(_ text: String) -> String {
        TerminalText.visible(text, oneLine: true)
    }
}

extension Array where Element == String {
    /// The items joined with commas, or `empty` when there are none.
    fileprivate func joinedOr(_ empty: String) -> String { isEmpty ? empty : joined(separator: ", ") }
}
