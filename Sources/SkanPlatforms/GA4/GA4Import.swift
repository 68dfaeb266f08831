import SkanCompiler
public import SkanCore

/// A GA4 `SKAdNetworkConversionValueSchema` written as a schema with events, meaning what GA4 computes: the fine
/// value of postbackWindowOne's first entry that holds (`conversionValue`, a derived field), each window's coarse
/// value and lock from its own entries (or window one's, where its settings are off). Counts and values are
/// since install, as GA4 keeps them; value events take the property's currency, which the resource does not
/// name (`currency`).
///
/// The fine value is a first-match field in the entries' order when each fine value's entries stand together
/// and fine value 0 comes only last; otherwise each case says exactly when the first holding entry has its
/// value (`e3 and not (e1 or e2)`), which needs no order. Coarse rules are the entries in order; a lock that
/// follows the fine value reads `conversionValue`, else says when the first holding entry is a locked one.
public struct GA4Import: Sendable {
    /// The schema's text, formatted as `skanc fmt` writes it.
    public let text: String
    /// What the import could not carry (names that are not identifiers), as errors.
    public let diagnostics: [Diagnostic]

    /// `source` imported as schema `name`, value events in `currency`, with a header naming `file`.
    public init(_ source: GA4Schema, name: String, currency: String, file: String) {
        var problems: [Diagnostic] = []
        var events: [String] = []
        var valued = Set<String>()
        for window in ConversionWindow.allCases {
            for value in source.conversionValues(in: window) {
                for mapping in value.eventMappings {
                    if !events.contains(mapping.eventName) { events.append(mapping.eventName) }
                    if mapping.minEventValue != nil || mapping.maxEventValue != nil { valued.insert(mapping.eventName) }
                }
            }
        }
        for event in events where !Self.isIdentifier(event) {
            problems.append(
                .error(
                    .importJSON,
                    "the event name '\(TerminalText.visible(event))' is not a schema identifier (a letter or '_', then letters, digits and '_'); rename it in GA4",
                    at: nil))
        }
        var lines: [String] = [
            "# Imported from a GA4 SKAdNetworkConversionValueSchema: \(file)",
            "# It means what GA4 computes: in each window, the first conversion value whose event mappings all hold",
            "# (counts and values since install, bounds inclusive). Value events are in \(currency), the property's",
            "# currency as given.",
            "schema \(name)",
            "version 1",
            "",
        ]
        for event in events { lines.append("event \(event)" + (valued.contains(event) ? " value \(currency)" : "")) }
        lines.append("")
        let first = source.conversionValues(in: .first)
        lines += Self.fineField(first)
        let fineOfEntry = first.map { $0.fineValue ?? 0 }
        for window in ConversionWindow.allCases {
            let entries = source.conversionValues(in: window)
            lines.append("")
            lines += Self.coarseBlock(entries, window: window, fines: window == .first ? fineOfEntry : nil)
            switch Self.lock(entries, window: window, fines: window == .first ? fineOfEntry : nil) {
            case .when(let condition)?: lines.append("lock window \(window.number) when \(condition)")
            case .always?: lines.append("lock window \(window.number) after 0 hours")
            case nil: break
            }
        }
        diagnostics = problems
        text = lines.joined(separator: "\n") + "\n"
    }

    /// Whether `name` can name a schema or an event: a letter or `_`, then letters, digits and `_` (ASCII), and
    /// not one of the language's words.
    public static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || first.properties.isAlphabetic, first.isASCII
        else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
        }
            && !Self.keywords.contains(name)
    }

    /// Words the schema language reads as its own.
    static let keywords: Set<String> = [
        "schema", "version", "event", "value", "flag", "field", "at", "bit", "bits", "buckets", "amount", "count",
        "of", "days", "within", "hours", "in", "window", "windows", "reserved", "coarse", "lock", "when",
        "otherwise", "after", "and", "or", "not", "low", "medium", "high",
    ]

    /// An entry's condition: its mappings' bounds, ANDed; nil when it always holds.
    static func condition(_ value: GA4Schema.ConversionValue) -> String? {
        let terms = value.eventMappings.flatMap { mapping -> [String] in
            var terms: [String] = []
            let name = mapping.eventName
            if let count = mapping.minEventCount, count > 0 {
                terms.append(count == 1 ? name : "\(name).count >= \(count)")
            }
            if let count = mapping.maxEventCount { terms.append("\(name).count <= \(count)") }
            if let value = mapping.minEventValue, value > 0 {
                terms.append("\(name).sum >= \(ConditionNumber.text(value))")
            }
            if let value = mapping.maxEventValue { terms.append("\(name).sum <= \(ConditionNumber.text(value))") }
            return terms
        }
        return terms.isEmpty ? nil : terms.joined(separator: " and ")
    }

    /// `(a) or (b)`: conditions as one, parenthesized where they have more than one term.
    static func any(_ conditions: [String]) -> String {
        conditions.count == 1
            ? conditions[0]
            : conditions.map { $0.contains(" and ") || $0.contains(" or ") ? "(\($0))" : $0 }.joined(separator: " or ")
    }

    static func fineField(_ entries: [GA4Schema.ConversionValue]) -> [String] {
        // Up to the first entry that always holds: nothing after it is reached.
        let reached = Array(entries.prefix { condition($0) != nil })
        let alwaysFine = entries.count > reached.count ? entries[reached.count].fineValue ?? 0 : 0
        var lines = [
            "field conversionValue at bits 0...5 \"postbackWindowOne: the first conversion value that holds\" {"
        ]
        var names: [Int: String] = [:]
        for entry in entries {
            if let fine = entry.fineValue, let name = entry.displayName { names[fine] = names[fine] ?? name }
        }
        // Runs of one fine value; first-match order is exact when every value has one run and 0 comes last.
        var runs: [(fine: Int, conditions: [String])] = []
        for entry in reached {
            let fine = entry.fineValue ?? 0
            if runs.last?.fine == fine {
                runs[runs.count - 1].conditions.append(condition(entry)!)
            } else {
                runs.append((fine, [condition(entry)!]))
            }
        }
        while runs.last?.fine == alwaysFine { runs.removeLast() }
        let ordered = Set(runs.map(\.fine)).count == runs.count && !runs.contains { $0.fine == alwaysFine }
        if ordered {
            for run in runs {
                lines.append("  v\(run.fine) = \(run.fine)\(description(names[run.fine])) when \(any(run.conditions))")
            }
        } else {
            // Exactly when the first holding entry has this value: one of its entries holds and no earlier entry
            // of another value does.
            var seen: [Int] = []
            for entry in reached where !seen.contains(entry.fineValue ?? 0) && (entry.fineValue ?? 0) != alwaysFine {
                let fine = entry.fineValue ?? 0
                seen.append(fine)
                let alternatives = reached.indices.filter { (reached[$0].fineValue ?? 0) == fine }.map { index in
                    let blockers = reached[..<index].filter { ($0.fineValue ?? 0) != fine }.map { condition($0)! }
                    let own = condition(reached[index])!
                    return blockers.isEmpty ? own : "\(own) and not (\(any(blockers)))"
                }
                lines.append("  v\(fine) = \(fine)\(description(names[fine])) when \(any(alternatives))")
            }
        }
        lines.append("  v\(alwaysFine) = \(alwaysFine)\(description(names[alwaysFine])) otherwise")
        lines.append("}")
        return lines
    }

    static func description(_ name: String?) -> String {
        guard let name else { return "" }
        return " \""
            + name.unicodeScalars.map { scalar -> String in
                switch scalar {
                case "\"": "\\\""
                case "\\": "\\\\"
                case "\n": "\\n"
                case _ where scalar.value < 0x20: ""
                default: String(scalar)
                }
            }.joined() + "\""
    }

    static func coarseBlock(_ entries: [GA4Schema.ConversionValue], window: ConversionWindow, fines: [Int]?) -> [String]
    {
        var lines = ["coarse window \(window.number) {"]
        if let fines, let byFine = functional(entries, fines: fines, \.coarseValue) {
            for value in [CoarseValue.high, .medium] {
                let cases = byFine.filter { $0.value == value }.map { "conversionValue == v\($0.key)" }.sorted()
                if !cases.isEmpty { lines.append("  \(value.rawValue) when \(cases.joined(separator: " or "))") }
            }
        } else {
            var rules: [(CoarseValue, [String])] = []
            for entry in entries {
                guard let condition = condition(entry) else {
                    rules.append((entry.coarseValue, []))
                    break
                }
                if rules.last?.0 == entry.coarseValue {
                    rules[rules.count - 1].1.append(condition)
                } else {
                    rules.append((entry.coarseValue, [condition]))
                }
            }
            // What comes after the last rule is low, as when no entry holds.
            var otherwise = CoarseValue.low
            if let last = rules.last, last.1.isEmpty {
                otherwise = last.0
                rules.removeLast()
            }
            while rules.last?.0 == otherwise { rules.removeLast() }
            for (value, conditions) in rules { lines.append("  \(value.rawValue) when \(any(conditions))") }
            lines.append("  \(otherwise.rawValue) otherwise")
            lines.append("}")
            return lines
        }
        lines.append("  low otherwise")
        lines.append("}")
        return lines
    }

    /// Each fine value's `property` when the entries reached (and, when none always holds, the default of fine
    /// value 0, coarse value low, no lock) of one fine value all agree on it; else nil.
    static func functional<Value: Equatable>(
        _ entries: [GA4Schema.ConversionValue], fines: [Int], _ property: KeyPath<GA4Schema.ConversionValue, Value>
    ) -> [Int: Value]? {
        var reached = Array(zip(entries, fines).prefix(self.reached(entries).count))
        // When no entry always holds, nothing matching leaves fine value 0, coarse value low and no lock.
        if reached.count == entries.count, entries.allSatisfy({ condition($0) != nil }) {
            reached.append(
                (
                    GA4Schema.ConversionValue(
                        displayName: nil, fineValue: 0, coarseValue: .low, eventMappings: [], lockEnabled: false), 0
                ))
        }
        var byFine: [Int: Value] = [:]
        for (entry, fine) in reached {
            if let known = byFine[fine], known != entry[keyPath: property] { return nil }
            byFine[fine] = entry[keyPath: property]
        }
        return byFine
    }

    /// How a window locks: when a condition holds, or always.
    enum Lock: Equatable {
        case when(String)
        case always
    }

    static func lock(_ entries: [GA4Schema.ConversionValue], window: ConversionWindow, fines: [Int]?) -> Lock? {
        let reached = self.reached(entries)
        guard reached.contains(where: \.lockEnabled) else { return nil }
        if let fines, let byFine = functional(entries, fines: fines, \.lockEnabled) {
            return .when(
                byFine.filter(\.value).keys.sorted().map { "conversionValue == v\($0)" }.joined(separator: " or "))
        }
        // Locked when the first holding entry is a locked one: it holds, and no earlier unlocked one does.
        var alternatives: [String] = []
        for (index, entry) in reached.enumerated() where entry.lockEnabled {
            let blockers = reached[..<index].filter { !$0.lockEnabled }.compactMap(condition)
            let own = condition(entry)
            switch (own, blockers.isEmpty) {
            case (nil, true): return .always
            case (nil, false): alternatives.append("not (\(any(blockers)))")
            case (let own?, true): alternatives.append(own)
            case (let own?, false): alternatives.append("\(own) and not (\(any(blockers)))")
            }
        }
        return .when(any(alternatives))
    }

    /// The entries up to the first that always holds (nothing after it is reached).
    static func reached(_ entries: [GA4Schema.ConversionValue]) -> [GA4Schema.ConversionValue] {
        guard let always = entries.firstIndex(where: { condition($0) == nil }) else { return entries }
        return Array(entries[...always])
    }
}
