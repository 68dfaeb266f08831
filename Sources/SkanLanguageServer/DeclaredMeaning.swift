import SkanCompiler

/// What decides a postback's meaning as the document writes it, for hovers: what a derived field measures
/// (`amount of purchase within 24 hours`), each case's condition or bucket range and description, and a derived
/// flag's condition. From the syntax tree, so a document with an error elsewhere still shows them.
struct DeclaredMeaning {
    /// What a case says beyond its code.
    struct CaseNote: Equatable {
        /// `when purchase.sum >= 100`, `otherwise`, or a bucket range `5..<20`; nil for an app-set case.
        var rule: String?
        /// The case's description.
        var description: String?
    }

    /// Per derived field, what it measures.
    private(set) var sources: [String: String] = [:]
    /// Per field, per case, its note.
    private(set) var cases: [String: [String: CaseNote]] = [:]
    /// Per derived flag, its condition.
    private(set) var flagConditions: [String: String] = [:]

    init(_ syntax: SchemaSyntax) {
        for declaration in syntax.declarations {
            switch declaration {
            case .flag(let flag) where flagConditions[flag.name.text] == nil:
                if let condition = flag.condition { flagConditions[flag.name.text] = condition.text }
            case .field(let field) where cases[field.name.text] == nil:
                if let source = field.source {
                    sources[field.name.text] = (field.buckets != nil ? "buckets " : "") + Self.text(of: source)
                }
                var notes: [String: CaseNote] = [:]
                for item in field.cases where notes[item.name.text] == nil {
                    let rule =
                        item.range?.text
                        ?? item.derivation.map { derivation in
                            derivation.condition.map { "when " + $0.text } ?? "otherwise"
                        }
                    notes[item.name.text] = CaseNote(rule: rule, description: item.description?.value)
                }
                cases[field.name.text] = notes
            default: continue
            }
        }
    }

    /// `amount of purchase + ad_revenue within 24 hours`, `count of level_up in window`, `count of days`.
    static func text(of source: SourceSyntax) -> String {
        var text =
            source.measure == .days
            ? "count of days" : source.measure.rawValue + " of " + source.events.map(\.text).joined(separator: " + ")
        switch source.scope {
        case .sinceFirstLaunch: break
        case .within(let hours): text += " within \(hours.text) hours"
        case .inWindow: text += " in window"
        }
        return text
    }

    /// `: when purchase.sum >= 100 ("Big spenders")`, or nothing for a case with nothing more to say.
    func suffix(field: String, case name: String) -> String {
        guard let note = cases[field]?[name] else { return "" }
        let parts = [note.rule.map { "`\($0)`" }, note.description.map { "\"\($0)\"" }].compactMap { $0 }
        return parts.isEmpty ? "" : ": " + parts.joined(separator: " ")
    }
}
