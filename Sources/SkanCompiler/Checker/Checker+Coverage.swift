import SkanCore

extension Checker {
    /// Decides coarse totality and reachability exactly: every valid state (at most 64) is run through the
    /// rules of each window. A block shared by several windows is reported once, naming those windows.
    ///
    /// Rules on events and time are decided for each state under every assignment of their atoms (an event
    /// logged or not, `hours >= 24` true or false), as if the atoms were independent: a gap is a state and an
    /// assignment no rule takes; a rule is used when some state and assignment reach it. Past 10 atoms a block
    /// is checked under the assignment where nothing was logged only.
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
            var hits = Array(repeating: 0, count: block.rules.count)
            var gaps: [Int] = []
            var firstGapAssignment: [String] = []
            let atoms = Array(block.rules.reduce(into: Set<Condition>()) { $0.formUnion($1.condition.activityAtoms) })
            let assignments = atoms.count > 10 ? 1 : 1 << atoms.count
            for state in states {
                var gapped = false
                for assignment in 0..<assignments {
                    let facts = AtomAssignment(atoms: atoms, bits: assignment)
                    if let index = block.rules.firstIndex(where: { $0.condition.holds(for: state.codes, atoms: facts) })
                    {
                        hits[index] += 1
                    } else if !gapped {
                        gapped = true
                        if gaps.isEmpty {
                            firstGapAssignment = atoms.map { "'\(schema.text(of: $0))' \(facts.value(of: $0))" }
                        }
                        gaps.append(schema.fineValue(of: state))
                    }
                }
            }
            if let example = gaps.first {
                report(
                    .coarseGap(
                        fineValue: example, more: gaps.count - 1, of: states.count, in: windows, block: block,
                        activity: firstGapAssignment))
            }
            for (rule, count) in zip(block.rules, hits) where count == 0 {
                let anyMatch = states.contains { state in
                    (0..<assignments).contains { bits in
                        rule.condition.holds(for: state.codes, atoms: AtomAssignment(atoms: atoms, bits: bits))
                    }
                }
                let why =
                    anyMatch
                    ? "earlier rules already take every state that '\(schema.text(of: rule.condition))' matches"
                    : "no valid state satisfies '\(schema.text(of: rule.condition))'"
                report(.ruleNeverUsed(rule, in: windows, why: why))
            }
        }
    }
}

/// Truth values for the activity atoms of a block: bit `i` of `bits` for `atoms[i]`.
struct AtomAssignment {
    var atoms: [Condition]
    var bits: Int

    func value(of atom: Condition) -> Bool {
        guard let index = atoms.firstIndex(of: atom) else { return false }
        return bits >> index & 1 == 1
    }
}

extension Condition {
    /// The terms that read events or time (`purchase`, `purchase.count >= 2`, `hours >= 24`).
    var activityAtoms: Set<Condition> {
        switch self {
        case .always, .flag, .comparison: []
        case .event, .eventMeasure, .hours: [self]
        case .not(let inner): inner.activityAtoms
        case .all(let parts), .any(let parts): parts.reduce(into: []) { $0.formUnion($1.activityAtoms) }
        }
    }

    /// Whether the condition holds for `codes` with each activity atom as `atoms` says.
    func holds(for codes: [Int], atoms: AtomAssignment) -> Bool {
        switch self {
        case .always: true
        case .flag(let field): codes[field] == 1
        case .comparison(let field, let op, let code): op.holds(codes[field], code)
        case .event, .eventMeasure, .hours: atoms.value(of: self)
        case .not(let inner): !inner.holds(for: codes, atoms: atoms)
        case .all(let parts): parts.allSatisfy { $0.holds(for: codes, atoms: atoms) }
        case .any(let parts): parts.contains { $0.holds(for: codes, atoms: atoms) }
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

    fileprivate static func ruleNeverUsed(_ rule: CoarseRule, in windows: [ConversionWindow], why: String) -> Diagnostic
    {
        .warning(
            .unreachable, "this '\(rule.value.rawValue)' rule is never used in \(describeWindows(windows)): \(why)",
            at: rule.location)
    }
}
