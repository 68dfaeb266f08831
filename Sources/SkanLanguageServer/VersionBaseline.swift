import SkanCompiler
import SkanCore
import SkanSchema

/// `skanc.against`: the released version each document is checked against, so the errors of `skanc check
/// --against` (a value that changes meaning without a new version, a version that goes down) show while the
/// schema is edited. The setting names a file or a git ref; the server's owner reads it (`LanguageServer.Baseline`),
/// once per document and setting: the released version does not change while a document is edited.
struct VersionBaseline {
    /// What the setting names, as the client gave it; nil: no baseline.
    private(set) var against: String?
    private let reader: LanguageServer.BaselineReader?
    /// Per document, the baseline's schema (nil: none, such as a file new since the release), and why it could
    /// not be used (said once).
    private var cache: [String: (schema: Schema?, problem: String?)] = [:]

    init(reader: LanguageServer.BaselineReader?) {
        self.reader = reader
    }

    /// Takes a new setting; whether it changed (so open documents are checked again).
    mutating func configure(_ value: String?) -> Bool {
        let value = value.flatMap { $0.isEmpty ? nil : $0 }
        guard value != against else { return false }
        against = value
        cache = [:]
        return true
    }

    mutating func forget(_ uri: String) {
        cache[uri] = nil
    }

    /// The baseline of the document at `uri`, and on first reading why it cannot be used, if so.
    mutating func baseline(for uri: String) -> (schema: Schema?, firstProblem: String?) {
        guard let against, let reader else { return (nil, nil) }
        if let cached = cache[uri] { return (cached.schema, nil) }
        let entry: (schema: Schema?, problem: String?)
        switch reader(uri, against) {
        case .none:
            entry = (nil, nil)
        case .unavailable(let reason):
            entry = (nil, "skanc: skanc.against '\(against)': \(reason); no version check until it is fixed")
        case .schema(let text, let name):
            let compiled = SchemaCompiler.compile(text, path: name)
            entry =
                compiled.schema.map { ($0, nil) }
                ?? (
                    nil,
                    "skanc: the baseline \(name) (skanc.against '\(against)') has errors, so no version is checked against it"
                )
        }
        cache[uri] = entry
        return (entry.schema, entry.problem)
    }
}

extension LanguageServer {
    /// What `skanc.against` names for one document: the released version's text (and a name for messages), none
    /// (the document is new since then), or why it cannot be read.
    public enum Baseline: Sendable {
        case schema(text: String, name: String)
        case none
        case unavailable(String)
    }

    /// Reads the baseline `against` names for the document at a URI: `skanc lsp` reads a file or runs git.
    public typealias BaselineReader = @Sendable (_ documentURI: String, _ against: String) -> Baseline
}
