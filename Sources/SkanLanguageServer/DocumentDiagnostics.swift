import SkanCompiler
package import SkanCore
import SkanSchema
import SkanSchemaTools

/// What `skanc check` and `skanc lint` say of a document, as the protocol's `Diagnostic` objects: the same
/// codes, severities and messages, notes as `relatedInformation` (or appended to the message where they point
/// nowhere), ranges in UTF-16 code units.
package enum DocumentDiagnostics {
    /// The diagnostics of `text`, the document at `uri`: the compiler's, then the lints' when it compiles.
    package static func of(_ text: String, uri: String, links: ReferenceLinks? = nil) -> [JSONValue] {
        checked(text, uri: uri, links: links).diagnostics
    }

    /// The diagnostics of `text`, and the schema it compiles to (nil with errors), which hovers reuse.
    /// `against`: the released version it is checked against (`skanc.against`), if any.
    static func checked(_ text: String, uri: String, links: ReferenceLinks?, against old: Schema? = nil) -> (
        diagnostics: [JSONValue], schema: Schema?
    ) {
        let lines = LineTable(text)
        let (findings, schema) = findings(text, uri: uri, against: old)
        return (findings.map { protocolDiagnostic($0, lines: lines, uri: uri, links: links) }, schema)
    }

    /// What `check` and `lint` find in `text`: the compiler's diagnostics, then, when it compiles, the version
    /// check against `old` (`check --against`) and the lints'.
    static func findings(_ text: String, uri: String, against old: Schema? = nil)
        -> (diagnostics: [Diagnostic], schema: Schema?)
    {
        let result = SchemaCompiler.compile(text, path: uri)
        var diagnostics = result.diagnostics
        if let schema = result.schema {
            if let old, let version = result.versionLocation {
                diagnostics += VersionGate.diagnostics(old: old, new: schema, versionAt: version)
            }
            diagnostics += SchemaLints.lint(schema, amounts: result.amounts)
        }
        return (diagnostics, result.schema)
    }

    /// One diagnostic in the protocol's terms, its code linked to where `links` says the reference explains it.
    static func protocolDiagnostic(_ diagnostic: Diagnostic, lines: LineTable, uri: String, links: ReferenceLinks?)
        -> JSONValue
    {
        let range =
            diagnostic.location.map { lines.range(at: $0) }
            ?? (TextPosition(line: 0, character: 0), TextPosition(line: 0, character: 0))
        var message = diagnostic.message
        if let subject = diagnostic.subject { message = "\(subject): \(message)" }
        var related: [JSONValue] = []
        for note in diagnostic.notes {
            if let location = note.location {
                related.append(
                    .object([
                        (
                            "location",
                            .object([("uri", .string(uri)), ("range", rangeJSON(lines.range(at: location)))])
                        ),
                        ("message", .string(note.message)),
                    ]))
            } else {
                message += "\n" + note.message
            }
        }
        var members: [(String, JSONValue)] = [
            ("range", rangeJSON(range)), ("severity", .integer(severity(diagnostic.severity))),
            ("code", .string(diagnostic.code.rawValue)), ("source", .string("skanc")), ("message", .string(message)),
        ]
        if let href = links?.href(for: diagnostic.code) {
            members.append(("codeDescription", .object([("href", .string(href))])))
        }
        if !related.isEmpty { members.append(("relatedInformation", .array(related))) }
        return .object(members)
    }

    /// The protocol's `DiagnosticSeverity`: 1 error, 2 warning, 3 information.
    static func severity(_ severity: Diagnostic.Severity) -> Int {
        switch severity {
        case .error: 1
        case .warning: 2
        case .note: 3
        }
    }

    static func rangeJSON(_ range: (start: TextPosition, end: TextPosition)) -> JSONValue {
        .object([("start", positionJSON(range.start)), ("end", positionJSON(range.end))])
    }

    static func positionJSON(_ position: TextPosition) -> JSONValue {
        .object([("line", .integer(position.line)), ("character", .integer(position.character))])
    }
}
