import SkanCompiler
import SkanCore
import SkanSchema

extension SchemaDiff {
    /// How `skanc diff` prints a difference.
    public enum Format: String, Sendable, CaseIterable {
        /// Plain text, for a terminal.
        case text
        /// Markdown, for a pull-request comment.
        case markdown
        /// One JSON document, for scripts.
        case json
    }

    /// The difference in `format`; deterministic byte for byte.
    public func rendered(_ format: Format) -> String {
        switch format {
        case .text: renderedText()
        case .markdown: renderedMarkdown()
        case .json: renderedJSON().rendered() + "\n"
        }
    }

    /// Sections of lines, shared by text, Markdown and the version gate's notes: a title and its items.
    var sections: [(title: String, items: [String])] {
        var sections: [(String, [String])] = []
        let values = ValueChange.Kind.allCases.compactMap { kind -> String? in
            let fineValues = self.values.filter { $0.kind == kind }.map(\.fineValue)
            guard !fineValues.isEmpty else { return nil }
            let verb = [
                "changed": "change meaning", "became-invalid": "become invalid", "became-valid": "become valid",
            ]
            return "\(fineValues.count) \(verb[kind.rawValue]!): \(ValueRuns.text(fineValues))"
        }
        sections.append(("Fine values", values))
        sections.append(("Layout", layout))
        sections.append(("Derived from", bindings))
        var coarseItems: [String] = []
        for window in ConversionWindow.allCases {
            let changes = coarse.filter { $0.window == window }
            let pairs = Set(changes.map { "\($0.old) → \($0.new)" }).sorted()
            for pair in pairs {
                let fineValues = changes.filter { "\($0.old) → \($0.new)" == pair }.map(\.fineValue)
                coarseItems.append("window \(window): \(pair) for \(ValueRuns.text(fineValues))")
            }
        }
        sections.append(("Coarse values", coarseItems))
        var lockItems: [String] = []
        for window in ConversionWindow.allCases {
            for locksNow in [true, false] {
                let fineValues = locks.filter { $0.window == window && $0.locksNow == locksNow }.map(\.fineValue)
                if !fineValues.isEmpty {
                    lockItems.append(
                        "window \(window): \(locksNow ? "now locks" : "no longer locks") at \(ValueRuns.text(fineValues))"
                    )
                }
            }
        }
        sections.append(("Locks", lockItems))
        sections.append(("Renames", renames))
        sections.append(("Descriptions changed", descriptions))
        return sections.filter { !$0.1.isEmpty }
    }

    /// What the change asks of the version.
    public var verdict: String {
        if changesMeaning {
            return newVersion > oldVersion
                ? "values change meaning; the version goes from \(oldVersion) to \(newVersion)"
                : "values change meaning: give the new schema a version above \(oldVersion)"
        }
        return "no value changes meaning"
    }

    private func renderedText() -> String {
        var out = "\(name): version \(oldVersion) → \(newVersion)\n"
        for (title, items) in sections {
            out += "\(title.lowercased()):\n" + items.map { "  \($0)\n" }.joined()
        }
        return out + verdict + "\n"
    }

    private func renderedMarkdown() -> String {
        var out = "## `\(name)`: version \(oldVersion) → \(newVersion)\n\n**\(verdict).**\n"
        for (title, items) in sections {
            out += "\n### \(title)\n\n" + items.map { "- \(Self.markdownEscaped($0, codeSpans: true))\n" }.joined()
        }
        if !values.isEmpty {
            out += "\n<details><summary>Every fine value that changes</summary>\n\n"
            out += "| fine value | change | before | now |\n|---:|---|---|---|\n"
            for change in values {
                out +=
                    "| \(change.fineValue) | \(change.kind.rawValue) | \(Self.markdownEscaped(change.old, codeSpans: false)) | "
                    + "\(Self.markdownEscaped(change.new, codeSpans: false)) |\n"
            }
            out += "\n</details>\n"
        }
        return out
    }

    private func renderedJSON() -> JSONValue {
        guard case .object(var members) = renderedJSONOfValues() else { return renderedJSONOfValues() }
        // Schemas with events and time also say what their fields and coarse values are derived from.
        if readsActivity, let layout = members.firstIndex(where: { $0.0 == "layout" }) {
            members.insert(("derived_from", .array(bindings.map(JSONValue.string))), at: layout + 1)
        }
        return .object(members)
    }

    private func renderedJSONOfValues() -> JSONValue {
        .object([
            ("schema", .string(name)),
            ("old_version", .integer(oldVersion)),
            ("new_version", .integer(newVersion)),
            ("changes_meaning", .bool(changesMeaning)),
            (
                "fine_values",
                .array(
                    values.map {
                        .object([
                            ("fine_value", .integer($0.fineValue)), ("change", .string($0.kind.rawValue)),
                            ("before", .string($0.old)), ("now", .string($0.new)),
                        ])
                    })
            ),
            (
                "coarse_values",
                .array(
                    coarse.map {
                        .object([
                            ("window", .integer($0.window.number)), ("fine_value", .integer($0.fineValue)),
                            ("before", .string($0.old)), ("now", .string($0.new)),
                        ])
                    })
            ),
            (
                "locks",
                .array(
                    locks.map {
                        .object([
                            ("window", .integer($0.window.number)), ("fine_value", .integer($0.fineValue)),
                            ("locks_now", .bool($0.locksNow)),
                        ])
                    })
            ),
            ("layout", .array(layout.map(JSONValue.string))),
            ("renames", .array(renames.map(JSONValue.string))),
            ("descriptions", .array(descriptions.map(JSONValue.string))),
        ])
    }

    /// Text safe in a Markdown item or table cell. Items keep their code spans (around names, which are
    /// identifiers: nothing in them needs escaping); cells hold free text from the schema (a reserved range's
    /// description), where a backquote is escaped too.
    private static func markdownEscaped(_ text: String, codeSpans: Bool) -> String {
        MarkdownText.escaped(text, keepingCodeSpans: codeSpans)
    }
}
