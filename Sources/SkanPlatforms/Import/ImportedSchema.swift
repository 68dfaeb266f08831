import SkanCompiler
public import SkanCore
public import SkanSchema

/// A schema an import writes, each line with the place in the configuration it comes from (a JSON key path such
/// as `postbackWindowOne.conversionValues[3]`). A limit of the schema language that the configuration goes past
/// (a number too large, a condition too long, a name taken) is reported at that place: the user edits the
/// configuration, never the generated text, which nobody sees before it is written.
public struct ImportedSchema: Sendable {
    /// The lines of the schema, in order.
    public private(set) var lines: [String] = []
    /// Each line's place in the configuration; nil for the header and the lines that stand for no entry.
    private var origins: [String?] = []

    init() {}

    /// The schema as `.skan` source, one line per entry of `lines`, ending in a line break.
    public var text: String { lines.joined(separator: "\n") + "\n" }

    mutating func append(_ line: String, from origin: String? = nil) {
        lines.append(line)
        origins.append(origin)
    }

    mutating func append(contentsOf lines: [String], from origin: String? = nil) {
        for line in lines { append(line, from: origin) }
    }

    /// The schema compiled. Its errors are the configuration's, each at the entry its line comes from, said as
    /// what the configuration asks for that a schema cannot hold; warnings are left to `skanc check`.
    public func compile() -> (schema: Schema?, errors: [Diagnostic]) {
        let compiled = SchemaCompiler.compile(text, path: "<imported>")
        guard compiled.schema == nil else { return (compiled.schema, []) }
        let errors = compiled.diagnostics.filter { $0.severity == .error }.map { diagnostic in
            let line = diagnostic.location.map { $0.line - 1 } ?? -1
            let origin = origins.indices.contains(line) ? origins[line] : nil
            return Diagnostic.error(
                .importJSON,
                "a schema cannot hold what this asks for: \(diagnostic.message) [\(diagnostic.code.rawValue)]",
                at: nil, subject: origin ?? "the configuration")
        }
        return (nil, errors)
    }
}
