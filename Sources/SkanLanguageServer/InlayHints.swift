import SkanCompiler
import SkanCore
import SkanSchema

/// `textDocument/inlayHint`: what the fine value gets from each case, written after its code (`= 2  +4`), and
/// after the version which bits no declaration holds yet (`bits 4...5 free`), so the layout reads without
/// working out shifts.
struct InlayHints {
    let names: NameFeatures

    /// The hints on protocol lines `lines` (0-based).
    func hints(lines range: ClosedRange<Int>) -> JSONValue {
        var hints: [JSONValue?] = []
        var used = Set<Int>()
        for declaration in names.syntax.declarations {
            switch declaration {
            case .flag(let flag): used.formUnion(Self.bits(flag.bit))
            case .reserved(let reserved): used.formUnion(Self.bits(reserved.bits))
            case .field(let field):
                used.formUnion(Self.bits(field.bits))
                guard let layout = names.layout.fields[field.name.text] else { continue }
                for item in field.cases {
                    guard let code = layout.caseNamed(item.name.text)?.code else { continue }
                    hints.append(hint(after: item.code, "+\(code << layout.bits.lower)", range: range))
                }
            default: continue
            }
        }
        if let version = names.syntax.version {
            let free = (0...5).filter { !used.contains($0) }
            let label =
                free.isEmpty
                ? "every bit used" : (free.count == 1 ? "free: bit " : "free: bits ") + ValueRuns.text(free)
            hints.append(hint(after: version, label, range: range))
        }
        return .array(hints.compactMap { $0 })
    }

    /// The bits a declaration writes (`bit 3`, `bits 1...2`), when they are bits of a fine value.
    private static func bits(_ syntax: BitsSyntax) -> ClosedRange<Int> {
        let lower = max(0, min(syntax.lower.value, 6))
        let upper = max(lower, min(syntax.upper?.value ?? lower, 5))
        return lower...upper
    }

    /// A hint just after `literal`, when its line is in `range`.
    private func hint(after literal: IntegerLiteral, _ label: String, range: ClosedRange<Int>) -> JSONValue? {
        let written = String(literal.value).utf8.count
        let position = names.lines.position(
            line: literal.location.line, column: literal.location.column + written)
        guard range.contains(position.line) else { return nil }
        return .object([
            ("position", DocumentDiagnostics.positionJSON(position)), ("label", .string(label)),
            ("paddingLeft", .bool(true)),
        ])
    }
}
