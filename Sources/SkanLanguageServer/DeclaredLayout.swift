import SkanCompiler
import SkanCore
import SkanSchema

/// What a document declares for hovers: each flag's and field's bits and cases, each event's currency. From the
/// compiled schema when the document compiles; otherwise from its syntax tree, so that a hover still says what a
/// name is while another line has an error (declarations whose bits or codes cannot hold are left out).
struct DeclaredLayout {
    private(set) var fields: [String: Field] = [:]
    /// Each event's currency; nil for an event that is only counted.
    private(set) var events: [String: String?] = [:]

    /// `compiled`: the schema the text compiles to, when already known (`.some(nil)`: it has errors).
    init(text: String, uri: String, compiled: Schema?? = nil) {
        if let schema = compiled ?? SchemaCompiler.compile(text, path: uri).schema {
            for field in schema.fields { fields[field.name] = field }
            for event in schema.events { events[event.name] = event.currency }
            return
        }
        for declaration in Parser.parse(Array(text.utf8)).syntax.declarations {
            switch declaration {
            case .event(let event) where events[event.name.text] == nil:
                events[event.name.text] = event.currency?.text
            case .flag(let flag):
                guard let bits = Self.bits(flag.bit), bits.width == 1 else { continue }
                add(
                    Field(
                        name: flag.name.text, kind: .flag, bits: bits, description: flag.description?.value,
                        cases: Field.flagCases))
            case .field(let field):
                guard let bits = Self.bits(field.bits) else { continue }
                let cases = field.cases.filter { (0...bits.maximumCode).contains($0.code.value) }.map {
                    FieldCase(name: $0.name.text, code: $0.code.value, description: $0.description?.value, bucket: nil)
                }
                add(
                    Field(
                        name: field.name.text, kind: .cases, bits: bits, description: field.description?.value,
                        cases: cases))
            default: continue
            }
        }
    }

    /// The first declaration of a name counts, as in the checker.
    private mutating func add(_ field: Field) {
        if fields[field.name] == nil { fields[field.name] = field }
    }

    /// The bits as written, when they are bits of a fine value (0...5, in order).
    private static func bits(_ syntax: BitsSyntax) -> BitRange? {
        let lower = syntax.lower.value
        let upper = syntax.upper?.value ?? lower
        guard (0...5).contains(lower), (lower...5).contains(upper) else { return nil }
        return BitRange(lower, upper)
    }
}
