import SkanCore

extension Checker {
    /// Decides coarse totality and reachability exactly: every valid state (at most 64) is run through the
    /// rules of each window. A block shared by several windows is reported once, naming those windows.
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
            for state in states {
                if let index = block.rules.firstIndex(where: { $0.condition.holds(for: state.codes) }) {
                    hits[index] += 1
                } else {
                    gaps.append(schema.fineValue(of: state))
                }
            }
            if let example = gaps.first {
                report(
                    .coarseGap(fineValue: example, more: gaps.count - 1, of: states.count, in: windows, block: block))
            }
            for (rule, count) in zip(block.rules, hits) where count == 0 {
                let anyMatch = states.contains { rule.condition.holds(for: $0.codes) }
                let why =
                    anyMatch
                    ? "earlier rules already take every state that '\(schema.text(of: rule.condition))' matches"
                    : "no valid state satisfies '\(schema.text(of: rule.condition))'"
                report(.ruleNeverUsed(rule, in: windows, why: why))
            }
        }
    }
}

extension Diagnostic {
    fileprivate static func coarseGap(
        fineValue: Int, more: Int, of states: Int, in windows: [ConversionWindow], block: Checker.ResolvedBlock
    ) -> Diagnostic {
        let others = more == 0 ? "" : " (and \(more) more of the \(states) valid states)"
        return .error(
            .coarseGap, "fine value \(fineValue) reaches no coarse rule in \(describeWindows(windows))\(others)",
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
