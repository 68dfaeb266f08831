import SkanCompiler
import SkanCore
import SkanSchema

/// `textDocument/codeLens`: above each coarse block, how the schema's fine values divide among its coarse values
/// (`48 fine values: high 12 (25%), medium 12 (25%), low 24 (50%)`), so an author sees what a tier that shows
/// only coarse values makes of the mapping. A fine value whose rule turns on events or time, not on the fields it
/// encodes, is counted apart. Lenses are labels: their command is empty, so clients show them as text.
struct CodeLenses {
    let names: NameFeatures
    /// The schema the document compiles to; nil while it has errors (no lenses then).
    let schema: Schema?

    var lenses: JSONValue {
        guard let schema else { return .array([]) }
        let states = schema.validStates
        var lenses: [JSONValue] = []
        for declaration in names.syntax.declarations {
            guard case .coarse(let block) = declaration,
                let window = ConversionWindow(number: block.windows?.lower.value ?? Self.defaultWindow(schema, names))
            else { continue }
            let title = Self.title(schema, window: window, states: states)
            let range = names.range(at: block.keyword, length: "coarse".utf8.count)
            lenses.append(
                .object([
                    ("range", range), ("command", .object([("title", .string(title)), ("command", .string(""))])),
                ]))
        }
        return .array(lenses)
    }

    /// The first window a block without windows applies to: one no block of its own names.
    private static func defaultWindow(_ schema: Schema, _ names: NameFeatures) -> Int {
        var named = Set<Int>()
        for declaration in names.syntax.declarations {
            guard case .coarse(let block) = declaration, let windows = block.windows else { continue }
            named.formUnion(windows.lower.value...max(windows.lower.value, windows.upper?.value ?? windows.lower.value))
        }
        return (1...3).first { !named.contains($0) } ?? 1
    }

    /// `N fine values: high a (x%), medium b (y%), ...`: each state's coarse value in `window` as the schema
    /// decides it from the state's codes (`Schema.coarseHead(of:window:)`).
    static func title(_ schema: Schema, window: ConversionWindow, states: [SchemaState]) -> String {
        var counts: [String: Int] = [:]
        var byActivity = 0
        for state in states {
            if let head = schema.coarseHead(of: state, window: window) {
                counts[head, default: 0] += 1
            } else {
                byActivity += 1
            }
        }
        let total = states.count
        let heads = [
            CoarseValue.high.rawValue, CoarseValue.medium.rawValue, CoarseValue.low.rawValue, CoarseRule.nothing,
        ]
        var parts = heads.compactMap { head in counts[head].map { "\(head) \($0) (\(percent($0, of: total)))" } }
        if byActivity > 0 { parts.append("by events or time \(byActivity) (\(percent(byActivity, of: total)))") }
        return "\(total) fine value\(total == 1 ? "" : "s"): " + parts.joined(separator: ", ")
    }

    private static func percent(_ part: Int, of whole: Int) -> String {
        whole == 0 ? "0%" : "\((part * 100 + whole / 2) / whole)%"
    }
}
