public import SkanCore
public import SkanSchema

/// The front end in one call: bytes → tokens → syntax tree → checked `Schema`, with every diagnostic found.
public enum SchemaCompiler {
    /// Schemas are hand-written files of a few kilobytes; larger input is refused with a `limit` error
    /// before lexing, so a wrong file (a log, a binary) is reported at once.
    public static let maximumSourceBytes = 1 << 20

    /// What one compilation gives: the schema, when there is no error, and every diagnostic.
    public struct Result: Sendable {
        /// Present only when there is no error.
        public var schema: Schema?
        /// In source order.
        public var diagnostics: [Diagnostic]
        /// Where the `version` number is, when the schema has one: diagnostics about the version point there.
        public var versionLocation: SourceLocation? = nil
        /// Where the amounts are written: fix-its that rewrite one replace that text.
        public var amounts = WrittenAmounts()
    }

    /// Compiles a schema: lexes, parses and checks it, collecting every diagnostic instead of stopping at the first.
    /// A flag or field may not make a column that skanc's outputs already have (the tables', the postback rows',
    /// the SQL view's): every caller gets that rule.
    public static func compile(_ source: SourceText) -> Result {
        guard source.bytes.count <= maximumSourceBytes else {
            let start = SourceLocation(line: 1, column: 1, offset: 0)
            return Result(
                schema: nil,
                diagnostics: [
                    .schemaTooLarge(at: start)
                ])
        }
        let (syntax, parseDiagnostics) = Parser.parse(source.bytes)
        let (schema, checkDiagnostics) = Checker.check(syntax, parseHadErrors: parseDiagnostics.hasErrors)
        return Result(
            schema: schema, diagnostics: (parseDiagnostics + checkDiagnostics).sortedByLocation(),
            versionLocation: syntax.version?.location, amounts: WrittenAmounts(syntax, bytes: source.bytes))
    }

    /// Compiles schema text held in memory, reported under `path`.
    public static func compile(_ text: String, path: String = "<memory>") -> Result {
        compile(SourceText(path: path, text: text))
    }
}

extension Diagnostic {
    fileprivate static func schemaTooLarge(at location: SourceLocation) -> Diagnostic {
        .error(
            .limit,
            // Readers stop one byte past the limit, so the size itself is not known: only that it is over.
            "the schema is larger than 1 MiB; schemas may be at most \(SchemaCompiler.maximumSourceBytes) bytes (1 MiB)",
            at: location)
    }
}
