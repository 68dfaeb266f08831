import SkanCore
import SkanSchema

extension Checker {
    /// The rules a coarse block gives its windows, with where the block is, for coverage diagnostics.
    struct ResolvedBlock {
        var keyword: SourceLocation
        var windows: [ConversionWindow]
        var rules: [CoarseRule]
    }

    /// The windows a `window N` / `windows A...B` clause names, or nil (with a `window-range` error).
    mutating func windows(of syntax: WindowsSyntax?) -> [ConversionWindow]? {
        guard let syntax else { return ConversionWindow.allCases }
        for literal in [syntax.lower, syntax.upper].compactMap({ $0 })
        where ConversionWindow(number: literal.value) == nil {
            report(.noSuchWindow(literal.value, at: literal.location))
            return nil
        }
        let lower = syntax.lower.value
        let upper = syntax.upper?.value ?? syntax.lower.value
        guard lower <= upper else {
            report(.windowsBackwards(lower, upper, at: syntax.lower.location))
            return nil
        }
        return ConversionWindow.allCases.filter { (lower...upper).contains($0.number) }
    }

    /// Assigns each window its coarse block: its own, else the block without windows; nil where no block
    /// covers the window (reported when `reportMissing`).
    mutating func resolveCoarseBlocks(
        _ blocks: [CoarseBlockSyntax], schemaLocation: SourceLocation, reportMissing: Bool
    ) -> PerWindow<ResolvedBlock?> {
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
        let assigned = assignToWindows(items, kind: .coarseBlock)
        let missing = ConversionWindow.allCases.filter { assigned[$0] == nil }
        if reportMissing, !missing.isEmpty {
            report(.windowsWithoutCoarseRules(missing, at: schemaLocation))
        }
        return PerWindow { window in
            assigned[window].map { ResolvedBlock(keyword: $0.keyword, windows: [window], rules: $0.value) }
        }
    }

    /// Each window's lock condition: its own `lock window N`, else a `lock` without windows, else none.
    mutating func resolveLocks(_ locks: [LockSyntax]) -> PerWindow<WindowedItem<Condition>?> {
        var items: [WindowedItem<Condition>] = []
        for lock in locks {
            guard let windows = windows(of: lock.windows) else { continue }
            guard let condition = resolveLockTrigger(lock, windows: windows) else { continue }
            items.append(
                WindowedItem(value: condition, windows: lock.windows == nil ? nil : windows, keyword: lock.keyword))
        }
        return assignToWindows(items, kind: .lockRule)
    }

    /// A coarse block or lock rule: what it gives, the windows it names (nil: none, so every window that
    /// has no item of its own), and where its keyword is.
    struct WindowedItem<Value> {
        var value: Value
        var windows: [ConversionWindow]?
        var keyword: SourceLocation
    }

    /// What `assignToWindows` assigns, for its messages.
    enum WindowedKind {
        case coarseBlock, lockRule
    }

    /// Gives each window the item that names it, else the item without windows, else nil. A second item for
    /// a window, or a second item without windows, is a `duplicate` error; the first one stands.
    private mutating func assignToWindows<Value>(
        _ items: [WindowedItem<Value>], kind: WindowedKind
    ) -> PerWindow<WindowedItem<Value>?> {
        var explicit = PerWindow<WindowedItem<Value>?>(repeating: nil)
        var fallback: WindowedItem<Value>? = nil
        for item in items {
            guard let windows = item.windows else {
                if let earlier = fallback {
                    report(.secondWithoutWindows(kind, at: item.keyword, first: earlier.keyword))
                } else {
                    fallback = item
                }
                continue
            }
            for window in windows {
                if let earlier = explicit[window] {
                    report(.secondForWindow(kind, window, at: item.keyword, first: earlier.keyword))
                } else {
                    explicit[window] = item
                }
            }
        }
        return explicit.map { $0 ?? fallback }
    }
}

/// `window 2`, `windows 1...3`, or `windows 1 and 3`.
func describeWindows(_ windows: [ConversionWindow]) -> String {
    let numbers = windows.map(\.number)
    if numbers.count == 1 { return "window \(numbers[0])" }
    if numbers.last! - numbers.first! == numbers.count - 1 { return "windows \(numbers.first!)...\(numbers.last!)" }
    return "windows " + listed(numbers.map(String.init))
}

extension Diagnostic {
    fileprivate static func noSuchWindow(_ number: Int, at location: SourceLocation) -> Diagnostic {
        .error(
            .windowRange,
            "window \(number) does not exist: the conversion windows are 1 (hours 0-48 after first launch), 2 (hours 48-168) and 3 (hours 168-840)",
            at: location)
    }

    fileprivate static func windowsBackwards(_ lower: Int, _ upper: Int, at location: SourceLocation) -> Diagnostic {
        .error(
            .windowRange, "windows \(lower)...\(upper) run from high to low; write 'windows \(upper)...\(lower)'",
            at: location)
    }

    fileprivate static func windowsWithoutCoarseRules(
        _ missing: [ConversionWindow], at location: SourceLocation
    ) -> Diagnostic {
        let advice =
            missing.count == ConversionWindow.allCases.count
            ? "add a 'coarse { ... }' block that ends with 'low otherwise'"
            : "add 'coarse \(describeWindows(missing)) { ... }' or a 'coarse' block without windows"
        return .error(
            .coarseGap, "\(describeWindows(missing)) \(missing.count == 1 ? "has" : "have") no coarse rules; \(advice)",
            at: location)
    }

    fileprivate static func secondWithoutWindows(
        _ kind: Checker.WindowedKind, at location: SourceLocation, first: SourceLocation
    ) -> Diagnostic {
        let message =
            switch kind {
            case .coarseBlock: "a second coarse block without windows; give one of them 'window N' or 'windows A...B'"
            case .lockRule: "a second lock rule without windows; join the conditions with 'or'"
            }
        return .error(.duplicate, message, at: location, notes: [.init("the first one is here", at: first)])
    }

    fileprivate static func secondForWindow(
        _ kind: Checker.WindowedKind, _ window: ConversionWindow, at location: SourceLocation, first: SourceLocation
    ) -> Diagnostic {
        let (message, note) =
            switch kind {
            case .coarseBlock:
                ("window \(window) already has a coarse block", "the first block for window \(window) is here")
            case .lockRule:
                (
                    "window \(window) already has a lock rule; join the conditions with 'or'",
                    "the first lock rule for window \(window) is here"
                )
            }
        return .error(.duplicate, message, at: location, notes: [.init(note, at: first)])
    }
}
