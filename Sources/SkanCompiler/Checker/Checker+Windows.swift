extension Checker {
    /// The rules a coarse block gives its windows, with where the block is, for coverage diagnostics.
    struct ResolvedBlock {
        var keyword: SourceLocation
        var windows: [Int]
        var rules: [CoarseRule]
    }

    /// The windows a `window N` / `windows A...B` clause names, or nil (with a `window-range` error).
    mutating func windows(of syntax: WindowsSyntax?) -> [Int]? {
        guard let syntax else { return Array(Schema.windows) }
        let lower = syntax.lower.value, upper = syntax.upper?.value ?? syntax.lower.value
        for literal in [syntax.lower, syntax.upper].compactMap({ $0 }) where !Schema.windows.contains(literal.value) {
            report(.error(.windowRange, "window \(literal.value) does not exist: the conversion windows are 1 (days 0-2), 2 (days 3-7) and 3 (days 8-35)",
                          at: literal.location))
            return nil
        }
        guard lower <= upper else {
            report(.error(.windowRange, "windows \(lower)...\(upper) run from high to low; write 'windows \(upper)...\(lower)'", at: syntax.lower.location))
            return nil
        }
        return Array(lower...upper)
    }

    /// Assigns each window its coarse block: its own, else the block without windows. Index 0 is window 1;
    /// nil where no block covers the window (reported when `reportMissing`).
    mutating func resolveCoarseBlocks(_ blocks: [CoarseBlockSyntax], schemaLocation: SourceLocation, reportMissing: Bool) -> [ResolvedBlock?] {
        var explicit: [ResolvedBlock?] = [nil, nil, nil]
        var fallback: ResolvedBlock? = nil
        for block in blocks {
            let rules = block.rules.compactMap { rule -> CoarseRule? in
                let condition = rule.condition.map { resolve($0) } ?? .always
                return condition.map { CoarseRule(value: rule.value, condition: $0, location: rule.location) }
            }
            guard let windows = windows(of: block.windows) else { continue }
            let resolved = ResolvedBlock(keyword: block.keyword, windows: windows, rules: rules)
            guard block.windows != nil else {
                if let earlier = fallback {
                    report(.error(.duplicate, "a second coarse block without windows; give one of them 'window N' or 'windows A...B'",
                                  at: block.keyword, notes: [.init("the first one is here", at: earlier.keyword)]))
                } else {
                    fallback = resolved
                }
                continue
            }
            for window in windows {
                if let earlier = explicit[window - 1] {
                    report(.error(.duplicate, "window \(window) already has a coarse block", at: block.keyword,
                                  notes: [.init("the first block for window \(window) is here", at: earlier.keyword)]))
                } else {
                    explicit[window - 1] = resolved
                }
            }
        }
        var result: [ResolvedBlock?] = []
        var missing: [Int] = []
        for window in Schema.windows {
            if let block = explicit[window - 1] {
                result.append(ResolvedBlock(keyword: block.keyword, windows: [window], rules: block.rules))
            } else if let fallback {
                result.append(ResolvedBlock(keyword: fallback.keyword, windows: [window], rules: fallback.rules))
            } else {
                result.append(nil)
                missing.append(window)
            }
        }
        if reportMissing, !missing.isEmpty {
            let advice = missing.count == 3
                ? "add a 'coarse { ... }' block that ends with 'low otherwise'"
                : "add 'coarse \(describeWindows(missing)) { ... }' or a 'coarse' block without windows"
            report(.error(.coarseGap, "\(describeWindows(missing)) \(missing.count == 1 ? "has" : "have") no coarse rules; \(advice)",
                          at: schemaLocation))
        }
        return result
    }

    /// Each window's lock condition: its own `lock window N`, else a `lock` without windows, else none.
    mutating func resolveLocks(_ locks: [LockSyntax]) -> [Condition?] {
        var explicit: [(condition: Condition, keyword: SourceLocation)?] = [nil, nil, nil]
        var fallback: (condition: Condition, keyword: SourceLocation)? = nil
        for lock in locks {
            let condition = resolve(lock.condition)
            guard let windows = windows(of: lock.windows), let condition else { continue }
            guard lock.windows != nil else {
                if let earlier = fallback {
                    report(.error(.duplicate, "a second lock rule without windows; join the conditions with 'or'",
                                  at: lock.keyword, notes: [.init("the first one is here", at: earlier.keyword)]))
                } else {
                    fallback = (condition, lock.keyword)
                }
                continue
            }
            for window in windows {
                if let earlier = explicit[window - 1] {
                    report(.error(.duplicate, "window \(window) already has a lock rule; join the conditions with 'or'",
                                  at: lock.keyword, notes: [.init("the first lock rule for window \(window) is here", at: earlier.keyword)]))
                } else {
                    explicit[window - 1] = (condition, lock.keyword)
                }
            }
        }
        return Schema.windows.map { explicit[$0 - 1]?.condition ?? fallback?.condition }
    }
}
