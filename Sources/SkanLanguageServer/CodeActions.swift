import SkanCore
import SkanSchema

/// `textDocument/codeAction`: a quick fix for each diagnostic in the range that carries a fix-it ("did you
/// mean 'paid'?"), computed from the document itself rather than from the diagnostics the client sends back.
enum CodeActions {
    /// The quick fixes for the diagnostics of `text` that touch lines `range` (protocol lines, 0-based).
    static func quickFixes(
        _ text: String, uri: String, lines range: ClosedRange<Int>, links: ReferenceLinks?, against old: Schema? = nil
    ) -> JSONValue {
        let table = LineTable(text)
        var actions: [JSONValue] = []
        for diagnostic in DocumentDiagnostics.findings(text, uri: uri, against: old).diagnostics {
            guard let location = diagnostic.location, range.contains(location.line - 1) else { continue }
            for fixIt in diagnostic.fixIts {
                let start = table.position(line: fixIt.location.line, column: fixIt.location.column)
                let end = table.position(
                    line: fixIt.location.line, column: fixIt.location.column + fixIt.original.utf8.count)
                let edit: JSONValue = .object([
                    ("range", DocumentDiagnostics.rangeJSON((start, end))), ("newText", .string(fixIt.replacement)),
                ])
                actions.append(
                    .object([
                        ("title", .string(Self.title(fixIt))),
                        ("kind", .string("quickfix")),
                        (
                            "diagnostics",
                            .array([
                                DocumentDiagnostics.protocolDiagnostic(diagnostic, lines: table, uri: uri, links: links)
                            ])
                        ),
                        ("isPreferred", .bool(diagnostic.fixIts.count == 1)),
                        ("edit", .object([("changes", .object([(uri, .array([edit]))]))])),
                    ]))
            }
        }
        return .array(actions)
    }

    /// `Replace 'purchas' with 'purchase'`, or for an insertion `Insert 'reserved bits 3...5'` (lines joined
    /// with `; `).
    static func title(_ fixIt: Diagnostic.FixIt) -> String {
        let written = fixIt.replacement.split(separator: "\n").joined(separator: "; ")
        return fixIt.original.isEmpty ? "Insert '\(written)'" : "Replace '\(fixIt.original)' with '\(written)'"
    }
}
