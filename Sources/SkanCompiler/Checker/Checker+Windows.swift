import SkanCore

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
        let lower = syntax.lower.value
        let upper = syntax.upper?.value ?? syntax.lower.value
        for literal in [syntax.lower, syntax.upper].compactMap({ $0 }) where !Schema.windows.contains(literal.value) {
            report(
                .error(
                    .windowRange,
                    "window \(literal.value) does not exist: the conversion windows are 1 (hours 0-48 after first launch), 2 (hours 48-168) and 3 (hours 168-840)",
                    at: literal.location))
            return nil
        }
        guard lower <= upper else {
            report(
                .error(
                    .windowRange,
                    "windows \(lower)...\(upper) run from high to low; write 'windows \(upper)...\(lower)'",
                    at: syntax.lower.location))
            return nil
        }
        return Array(lower...upper)
    }

    /// Assigns each window its coarse block: its own, else the block without windows. Index 0 is window 1;
    /// nil where no block covers the window (reported when `reportMissing`).
    mutating func resolveCoarseBlocks(
        _ blocks: [CoarseBlockSyntax], schemaLocation: SourceLocation, reportMissing: Bool
    ) -> [ResolvedBlock?] {
        var items: [WindowedItem<[CoarseRule]>] = []
        for block in blocks {
            let rules = block.rules.compactMap { rule -> CoarseRule? in
                let condition = rule.condition.map { resolveCondition($0) } ?? .always
                return condition.map {
                    CoarseRule(
                        value: rule.value, condition: $0, location: rule.location,
                        text: rule.condition?.text ?? "otherwise")
                }
            }
            guard let windows = windows(of: block.windows) else { continue }
            items.append(
                WindowedItem(value: rules, windows: block.windows == nil ? nil : windows, keyword: block.keyword))
        }
        let assigned = assignToWindows(
            items,
            secondWithoutWindows:
                "a second coarse block without windows; give one of them 'window N' or 'windows A...B'",
            secondForWindow: { "window \($0) already has a coarse block" },
            firstForWindow: { "the first block for window \($0) is here" })
        let missing = Schema.windows.filter { assigned[$0 - 1] == nil }
        if reportMissing, !missing.isEmpty {
            let advice =
                missing.count == 3
                ? "add a 'coarse { ... }' block that ends with 'low otherwise'"
                : "add 'coarse \(describeWindows(missing)) { ... }' or a 'coarse' block without windows"
            report(
                .error(
                    .coarseGap,
                    "\(describeWindows(missing)) \(missing.count == 1 ? "has" : "have") no coarse rules; \(advice)",
                    at: schemaLocation))
        }
        return Schema.windows.map { window in
            assigned[window - 1].map { ResolvedBlock(keyword: $0.keyword, windows: [window], rules: $0.value) }
        }
    }

    /// Each window's lock condition: its own `lock window N`, else a `lock` without windows, else none.
    mutating func resolveLocks(_ locks: [LockSyntax]) -> [Condition?] {
        var items: [WindowedItem<Condition>] = []
        for lock in locks {
            let condition = resolveCondition(lock.condition)
            guard let windows = windows(of: lock.windows), let condition else { continue }
            items.append(
                WindowedItem(value: condition, windows: lock.windows == nil ? nil : windows, keyword: lock.keyword))
        }
        return assignToWindows(
            items, secondWithoutWindows: "a second lock rule without windows; join the conditions with 'or'",
            secondForWindow: { "window \($0) already has a lock rule; join the conditions with 'or'" },
            firstForWindow: { "the first lock rule for window \($0) is here" }
        ).map { $0?.value }
    }

    /// A coarse block or lock rule: what it gives, the windows it names (nil: none, so every window that
    /// has no item of its own), and where its keyword is.
    struct WindowedItem<Value> {
        var value: Value
        var windows: [Int]?
        var keyword: SourceLocation
    }

    /// Gives each window (index 0 is window 1) the item that names it, else the item without windows, else
    /// nil. A second item for a window, or a second item without windows, is a `duplicate` error; the
    /// first one stands.
    private mutating func assignToWindows<Value>(
        _ items: [WindowedItem<Value>], secondWithoutWindows: String,
        secondForWindow: (Int) -> String,
        firstForWindow: (Int) -> String
    ) -> [WindowedItem<Value>?] {
        var explicit: [WindowedItem<Value>?] = [nil, nil, nil]
        var fallback: WindowedItem<Value>? = nil
        for item in items {
            guard let windows = item.windows else {
                if let earlier = fallback {
                    report(
                        .error(
                            .duplicate, secondWithoutWindows, at: item.keyword,
                            notes: [.init("the first one is here", at: earlier.keyword)]))
                } else {
                    fallback = item
                }
                continue
            }
            for window in windows {
                if let earlier = explicit[window - 1] {
                    report(
                        .error(
                            .duplicate, secondForWindow(window), at: item.keyword,
                            notes: [.init(firstForWindow(window), at: earlier.keyword)]))
                } else {
                    explicit[window - 1] = item
                }
            }
        }
        return Schema.windows.map { explicit[$0 - 1] ?? fallback }
    }
}
