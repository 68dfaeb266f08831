import SkanCompiler
public import SkanCore
package import SkanSchema

/// `skanc fmt`: one canonical layout for a schema. Each declaration, case and coarse rule on a line of its
/// own; two spaces per brace level; one space between tokens (none inside `1...2` or parentheses); case
/// names, coarse values and the names of flags written together aligned, and their descriptions too; one
/// blank line between declarations, except inside a run of flags (or `reserved`, or `lock` lines) that the
/// author wrote together. Comments stay with the code they were next to. Only the layout changes: the
/// formatted schema compiles to the same `Schema`, and formatting it again changes nothing.
public enum SchemaFormatter {
    /// The formatted text, or nil with the diagnostics when the schema does not parse (a file with syntax
    /// errors has no layout to keep; check errors do not stop formatting).
    public static func format(_ source: SourceText) -> (text: String?, diagnostics: [Diagnostic]) {
        guard source.bytes.count <= SchemaCompiler.maximumSourceBytes else {
            return (nil, SchemaCompiler.compile(source).diagnostics)
        }
        let (syntax, diagnostics) = Parser.parse(source.bytes)
        guard !diagnostics.hasErrors else { return (nil, diagnostics) }
        let (tokens, _) = Lexer.tokenize(source.bytes)
        var layout = FormattedLayout(tokens: tokens, bytes: source.bytes)
        layout.mark(syntax)
        return (layout.render(), [])
    }

    /// `format` for text in memory.
    public static func format(_ text: String) -> String? {
        format(SourceText(path: "<memory>", text: text)).text
    }
}

extension Schema {
    /// Whether two schemas mean the same, wherever their rules stand in the source: equal but for the
    /// coarse rules' locations (which only point diagnostics at the text). What `SchemaFormatter` keeps.
    package func hasSameMeaning(as other: Schema) -> Bool {
        func placeless(_ schema: Schema) -> Schema {
            var copy = schema
            let nowhere = SourceLocation(line: 1, column: 1, offset: 0)
            copy.coarseRulesByWindow = copy.coarseRulesByWindow.map { rules in
                rules.map { rule in
                    var rule = rule
                    rule.location = nowhere
                    return rule
                }
            }
            return copy
        }
        return placeless(self) == placeless(other)
    }
}

extension DiagnosticCode {
    /// `fmt`: a schema with syntax errors is not formatted (its errors come first).
    public static let notFormatted = DiagnosticCode("not-formatted")
}

extension SchemaFormatter {
    /// The error after a schema's syntax errors: nothing of it was formatted.
    public static func notFormatted() -> Diagnostic {
        .error(.notFormatted, "not formatted: fix the syntax errors first", at: nil)
    }
}
