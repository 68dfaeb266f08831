import SkanCore
import SkanSchema

extension Checker {
    /// Decides coarse totality and reachability exactly: every valid state (at most 64) is run through the
    /// rules of each window. A block shared by several windows is reported once, naming those windows.
    ///
    /// Rules on events and time are decided over every activity their terms can tell apart (`ActivitySpace`:
    /// the hours within the block's windows, each event's count and sum, related as they are: `purchase.count >= 2`
    /// implies `purchase`), whatever the number of terms: a gap is a state and an activity no rule takes; a rule
    /// is used when some state and activity reach it first. A block whose activities are too many to search within
    /// the budget gets `coverage-limit` instead of a verdict.
    mutating func checkCoverage(of schema: Schema, blocks: PerWindow<ResolvedBlock?>) {
        let states = schema.validStates
        var seen: [SourceLocation: [ConversionWindow]] = [:]
        var order: [ResolvedBlock] = []
        for case let block? in blocks.values {
            if seen[block.keyword] == nil { order.append(block) }
            seen[block.keyword, default: []] += block.windows
        }
        for block in order {
            let windows = seen[block.keyword]!
            let conditions = block.rules.map(\.condition)
            // A set beside the list: blocks of thousands of rules read thousands of atoms.
            var atoms: [Condition] = []
            var known: Set<Condition> = []
            for condition in conditions {
                for atom in condition.orderedActivityAtoms where known.insert(atom).inserted { atoms.append(atom) }
            }
            var search = CoverageSearch(
                space: ActivitySpace(atoms: atoms, windows: windows, units: schema.events.map(\.unitsPerWhole)),
                rules: conditions,
                budget: CoverageSearch.budget)
            var gaps: [Int] = []
            for state in states {
                if search.explore(state.codes) { gaps.append(schema.fineValue(of: state)) }
            }
            if search.exhausted {
                // A block that ends with `otherwise` has no gap whatever the search saw; only which rules are
                // used is left undecided, and no warning is better than a guessed one.
                if block.rules.last?.condition != .always {
                    report(.coverageLimit(in: windows, block: block, atoms: atoms.count))
                }
                continue
            }
            if let example = gaps.first, let point = search.gapPoint {
                let activity = atoms.map { "'\(schema.text(of: $0))' \(point.value(of: $0) ?? false)" }
                report(
                    .coarseGap(
                        fineValue: example, more: gaps.count - 1, of: states.count, in: windows, block: block,
                        activity: activity))
            }
            for (index, rule) in block.rules.enumerated() where !search.used[index] {
                var alone = CoverageSearch(
                    space: search.space, rules: [rule.condition], budget: CoverageSearch.budget)
                let anyMatch = states.contains { alone.reaches(0, codes: $0.codes) }
                guard !alone.exhausted else { continue }
                let why =
                    anyMatch
                    ? "earlier rules already take every state that '\(schema.text(of: rule.condition))' matches"
                    : "no valid state satisfies '\(schema.text(of: rule.condition))'"
                report(.ruleNeverUsed(rule, in: windows, why: why))
            }
        }
    }
}

extension Condition {
    /// The terms that read events or time (`purchase`, `purchase.count >= 2`, `hours >= 24`), in the order they
    /// are written, each once.
    var orderedActivityAtoms: [Condition] {
        switch self {
        case .always, .flag, .comparison: []
        case .event, .eventMeasure, .hours: [self]
        case .not(let inner): inner.orderedActivityAtoms
        case .all(let parts), .any(let parts):
            parts.reduce(into: []) { atoms, part in
                for atom in part.orderedActivityAtoms where !atoms.contains(atom) { atoms.append(atom) }
            }
        }
    }
}

extension Diagnostic {
    fileprivate static func coarseGap(
        fineValue: Int, more: Int, of states: Int, in windows: [ConversionWindow], block: Checker.ResolvedBlock,
        activity: [String]
    ) -> Diagnostic {
        let others = more == 0 ? "" : " (and \(more) more of the \(states) valid states)"
        let when = activity.isEmpty ? "" : " when \(listed(activity))"
        return .error(
            .coarseGap,
            "fine value \(fineValue)\(when) reaches no coarse rule in \(describeWindows(windows))\(others)",
            at: block.keyword,
            notes: [
                .init(
                    "end the block with a rule such as 'low otherwise' so that every state gets a coarse value",
                    at: block.rules.last?.location ?? block.keyword)
            ])
    }

    fileprivate static func coverageLimit(in windows: [ConversionWindow], block: Checker.ResolvedBlock, atoms: Int)
        -> Diagnostic
    {
        .error(
            .coverageLimit,
            "the coarse rules in \(describeWindows(windows)) read \(atoms) event and time terms in more combinations than can be checked (more than \(CoverageSearch.budget)), so a state could reach no rule unseen",
            at: block.keyword,
            notes: [
                .init(
                    "end the block with a rule such as 'low otherwise', or write fewer terms per rule",
                    at: block.rules.last?.location ?? block.keyword)
            ])
    }

    fileprivate static func ruleNeverUsed(_ rule: CoarseRule, in windows: [ConversionWindow], why: String) -> Diagnostic
    {
        .warning(
            .unreachable, "this '\(rule.head)' rule is never used in \(describeWindows(windows)): \(why)",
            at: rule.location)
    }
}
