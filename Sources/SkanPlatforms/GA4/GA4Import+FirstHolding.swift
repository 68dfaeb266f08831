import SkanSchema

/// "The first entry that holds is one of these", written as a condition: what GA4's first match means for a fine
/// value or a lock, in a schema's terms.
extension GA4Import {
    /// A condition, or one that always or never holds.
    enum Written: Equatable {
        case always, never
        case text(String)
    }

    /// When the first entry of a list that holds is one of those sought: some sought entry holds and no earlier
    /// blocking one does (`condition` nil: the entry always holds). The flat form, each sought entry with every
    /// blocker before it, grows with the square of the entries (24 entries of two mappings took 66 terms, GA4's
    /// 128 entries thousands). Nested, each entry appears once: `not (B1) and (S1 or not (B2) and (S2 or …))`,
    /// with Bi the blockers between S(i-1) and Si; but each sought entry nests one level deeper, and a condition
    /// nests at most 64. So the list is cut into runs of `soughtPerRun` sought entries, each nested and guarded by
    /// every blocker before it, joined with `or`.
    static func firstHolding(_ entries: [(sought: Bool, blocks: Bool, condition: String?)]) -> Written {
        let relevant = entries.filter { $0.sought || $0.blocks }
        var result = Written.never
        var earlier: [String?] = []
        var start = 0
        while start < relevant.count {
            var end = start
            var sought = 0
            while end < relevant.count, sought < soughtPerRun || !relevant[end].sought {
                if relevant[end].sought { sought += 1 }
                end += 1
            }
            result = or(result, andNot(earlier, nested(relevant[start..<end])))
            earlier += relevant[start..<end].filter(\.blocks).map(\.condition)
            start = end
        }
        return result
    }

    /// Sought entries per nested run: 40 levels, with room for the conditions' own parentheses.
    static let soughtPerRun = 40

    private static func nested(_ entries: ArraySlice<(sought: Bool, blocks: Bool, condition: String?)>) -> Written {
        var result = Written.never
        var blockers: [String?] = []
        for entry in entries.reversed() {
            if entry.blocks {
                blockers.append(entry.condition)
                continue
            }
            // The blockers between this entry and the next sought one guard only what comes after this one.
            result = or(entry.condition.map(Written.text) ?? .always, andNot(blockers.reversed(), result))
            blockers = []
        }
        return andNot(blockers.reversed(), result)
    }

    private static func or(_ own: Written, _ rest: Written) -> Written {
        switch (own, rest) {
        case (.always, _), (_, .always): .always
        case (_, .never): own
        case (.never, _): rest
        case (.text(let own), .text(let rest)): .text((own.contains(" or ") ? "(\(own))" : own) + " or " + rest)
        }
    }

    /// `written` when none of `blockers` (in list order) holds.
    private static func andNot(_ blockers: [String?], _ written: Written) -> Written {
        guard !blockers.isEmpty, written != .never else { return written }
        // A blocker that always holds stops every entry after it.
        guard blockers.allSatisfy({ $0 != nil }) else { return .never }
        let none = "not (\(any(blockers.compactMap { $0 })))"
        switch written {
        case .never: return .never
        case .always: return .text(none)
        case .text(let text): return .text("\(none) and (\(text))")
        }
    }
}
