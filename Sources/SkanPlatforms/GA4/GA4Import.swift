import SkanCompiler
public import SkanCore
import SkanSchema

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
    /// The schema, each line with the entry it comes from.
    public let imported: ImportedSchema
    /// What the import could not carry: errors (names that are not identifiers, numbers a schema cannot hold) and
    /// warnings (`applyConversionValues`).
    public let diagnostics: [Diagnostic]

    /// The schema's text (before `skanc fmt`'s layout).
    public var text: String { imported.text }

    /// `source` imported as schema `name`, value events in `currency`, with a header naming `file`.
    public init(_ source: GA4Schema, name: String, currency: String, file: String) {
        var problems: [Diagnostic] = []
        var events: [(name: String, origin: String)] = []
        var valued = Set<String>()
        var read: Set<String> = []
        for window in ConversionWindow.allCases {
            let key = source.entriesKey(in: window)
            // A window that inherits another's entries has nothing of its own to read.
            guard read.insert(key).inserted else { continue }
            for (index, value) in source.conversionValues(in: window).enumerated() {
                for (position, mapping) in value.eventMappings.enumerated() {
                    let origin = "\(key)[\(index)].eventMappings[\(position)]"
                    if !events.contains(where: { $0.name == mapping.eventName }) {
                        events.append((mapping.eventName, origin))
                    }
                    if mapping.minEventValue != nil || mapping.maxEventValue != nil { valued.insert(mapping.eventName) }
                    problems += Self.numberProblems(mapping, at: origin)
                }
            }
        }
        for event in events where !Self.isIdentifier(event.name) {
            problems.append(
                .error(
                    .importJSON,
                    "the event name '\(TerminalText.visible(event.name))' is not a schema identifier (a letter or '_', then letters, digits and '_'); rename it in GA4",
                    at: nil, subject: event.origin + ".eventName"))
        }
        // The fine field is `conversionValue`, unless an event has that name.
        var field = "conversionValue"
        while events.contains(where: { $0.name == field }) { field += "_" }
        var schema = ImportedSchema()
        schema.append(contentsOf: [
            "# Imported from a GA4 SKAdNetworkConversionValueSchema: \(file)",
            "# It means what GA4 computes: in each window, the first conversion value whose event mappings all hold",
            "# (counts and values since install, bounds inclusive). Value events are in \(currency), the property's",
            "# currency as given.",
            "schema \(name)",
            "version 1",
            "",
        ])
        for event in events {
            schema.append(
                "event \(event.name)" + (valued.contains(event.name) ? " value \(currency)" : ""),
                from: event.origin + ".eventName")
        }
        schema.append("")
        let first = source.conversionValues(in: .first)
        let firstKey = source.entriesKey(in: .first)
        for (line, entry) in Self.fineField(first, field: field) {
            schema.append(line, from: entry.map { "\(firstKey)[\($0)]" } ?? firstKey)
        }
        let fineOfEntry = first.map { $0.fineValue ?? 0 }
        for window in ConversionWindow.allCases {
            let entries = source.conversionValues(in: window)
            let key = source.entriesKey(in: window)
            schema.append("")
            let fines = window == .first ? fineOfEntry : nil
            for (line, entry) in Self.coarseBlock(entries, window: window, fines: fines, field: field) {
                schema.append(line, from: entry.map { "\(key)[\($0)]" } ?? key)
            }
            let locked = entries.firstIndex(where: \.lockEnabled).map { "\(key)[\($0)].lockEnabled" } ?? key
            // A window reading window one's entries has the fine field's first holding entry too.
            switch Self.lock(entries, window: window, fines: key == firstKey ? fineOfEntry : nil, field: field) {
            case .when(let condition)?: schema.append("lock window \(window.number) when \(condition)", from: locked)
            case .always?: schema.append("lock window \(window.number) after 0 hours", from: locked)
            case nil: break
            }
        }
        if source.applyConversionValues { problems.append(.ga4ApplyConversionValuesNotCarried) }
        diagnostics = problems
        imported = schema
    }

    /// A mapping's bounds that a schema cannot hold: an amount or count above 1e15, a negative maximum value
    /// (a sum is never below 0, so the entry could never hold: GA4 would never choose it either, but the entry
    /// is more likely a mistake worth fixing).
    static func numberProblems(_ mapping: GA4Schema.EventMapping, at origin: String) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        let bounds: [(String, Double?)] = [
            ("minEventCount", mapping.minEventCount.map(Double.init)),
            ("maxEventCount", mapping.maxEventCount.map(Double.init)),
            ("minEventValue", mapping.minEventValue), ("maxEventValue", mapping.maxEventValue),
        ]
        for (key, value) in bounds {
            guard let value else { continue }
            if value > ConditionNumber.largest {
                problems.append(
                    .error(
                        .importJSON,
                        "\(ConditionNumber.text(value)) is more than a schema's conditions hold (at most 1e15); lower it in GA4",
                        at: nil, subject: "\(origin).\(key)"))
            } else if value < 0, key == "maxEventValue" || key == "maxEventCount" {
                problems.append(
                    .error(
                        .importJSON,
                        "a maximum of \(ConditionNumber.text(value)) never holds (counts and values start at 0); remove the entry or raise it in GA4",
                        at: nil, subject: "\(origin).\(key)"))
            }
        }
        return problems
    }

    /// Whether `name` can name a schema or an event (`SchemaIdentifier`, the language's rule).
    public static func isIdentifier(_ name: String) -> Bool {
        SchemaIdentifier.isValid(name)
    }

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

    /// The fine field's lines, each with the index of the first entry it stands for (nil: the whole list).
    static func fineField(_ entries: [GA4Schema.ConversionValue], field: String = "conversionValue") -> [(String, Int?)]
    {
        // Up to the first entry that always holds: nothing after it is reached.
        let reached = Array(entries.prefix { condition($0) != nil })
        let alwaysFine = entries.count > reached.count ? entries[reached.count].fineValue ?? 0 : 0
        var lines: [(String, Int?)] = [
            ("field \(field) at bits 0...5 \"postbackWindowOne: the first conversion value that holds\" {", nil)
        ]
        var names: [Int: String] = [:]
        for entry in entries {
            if let fine = entry.fineValue, let name = entry.displayName { names[fine] = names[fine] ?? name }
        }
        let firstEntry = { (fine: Int) in entries.firstIndex { ($0.fineValue ?? 0) == fine } }
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
                lines.append(
                    (
                        "  v\(run.fine) = \(run.fine)\(description(names[run.fine])) when \(any(run.conditions))",
                        firstEntry(run.fine)
                    ))
            }
        } else {
            // Cases in the order of their first entry. Case X holds when one of its entries holds and no earlier
            // entry of a value whose case comes after X does (earlier cases are excluded by the first match
            // itself): exactly when the first entry that holds has value X.
            var order: [Int] = []
            for entry in reached where !order.contains(entry.fineValue ?? 0) && (entry.fineValue ?? 0) != alwaysFine {
                order.append(entry.fineValue ?? 0)
            }
            let rank = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
            for fine in order {
                let written = firstHolding(
                    reached.map { entry in
                        let value = entry.fineValue ?? 0
                        let blocks = value != fine && (rank[value].map { $0 > rank[fine]! } ?? true)
                        return (sought: value == fine, blocks: blocks, condition: condition(entry))
                    })
                guard case .text(let text) = written else { continue }
                lines.append(("  v\(fine) = \(fine)\(description(names[fine])) when \(text)", firstEntry(fine)))
            }
        }
        lines.append(
            ("  v\(alwaysFine) = \(alwaysFine)\(description(names[alwaysFine])) otherwise", firstEntry(alwaysFine)))
        lines.append(("}", nil))
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

    /// A window's coarse block, each line with the index of the first entry it stands for (nil: none or all).
    static func coarseBlock(
        _ entries: [GA4Schema.ConversionValue], window: ConversionWindow, fines: [Int]?,
        field: String = "conversionValue"
    ) -> [(String, Int?)] {
        var lines: [(String, Int?)] = [("coarse window \(window.number) {", nil)]
        // Where no entry holds GA4 sends nothing (`nil` here), so the window gets no update.
        if let fines, let byFine = functional(entries, fines: fines, \.sentCoarseValue, noMatch: nil) {
            for value in [CoarseValue.high, .medium, nil] {
                let cases = byFine.filter { $0.value == value }.map { "\(field) == v\($0.key)" }.sorted()
                let first = value.flatMap { value in entries.firstIndex { $0.coarseValue == value } }
                if !cases.isEmpty {
                    lines.append(
                        ("  \(value?.rawValue ?? CoarseRule.nothing) when \(cases.joined(separator: " or "))", first))
                }
            }
        } else {
            var rules: [(CoarseValue, [String], first: Int)] = []
            for (index, entry) in entries.enumerated() {
                guard let condition = condition(entry) else {
                    rules.append((entry.coarseValue, [], index))
                    break
                }
                if rules.last?.0 == entry.coarseValue {
                    rules[rules.count - 1].1.append(condition)
                } else {
                    rules.append((entry.coarseValue, [condition], index))
                }
            }
            // What comes after the last rule is nothing, as when no entry holds: GA4 sends no update.
            var otherwise = (CoarseValue?.none, Int?.none)
            if let last = rules.last, last.1.isEmpty {
                otherwise = (last.0, last.first)
                rules.removeLast()
            }
            while let last = rules.last, last.0 == otherwise.0 { rules.removeLast() }
            for (value, conditions, first) in rules {
                lines.append(("  \(value.rawValue) when \(any(conditions))", first))
            }
            lines.append(("  \(otherwise.0?.rawValue ?? CoarseRule.nothing) otherwise", otherwise.1))
            lines.append(("}", nil))
            return lines
        }
        lines.append(("  low otherwise", nil))
        lines.append(("}", nil))
        return lines
    }

    /// Each fine value's `property` when the entries reached (and, when none always holds, `noMatch` for fine
    /// value 0, what nothing matching leaves) of one fine value all agree on it; else nil.
    static func functional<Value: Equatable>(
        _ entries: [GA4Schema.ConversionValue], fines: [Int], _ property: KeyPath<GA4Schema.ConversionValue, Value>,
        noMatch: Value
    ) -> [Int: Value]? {
        let reached = Array(zip(entries, fines).prefix(self.reached(entries).count))
        var byFine: [Int: Value] = [:]
        if reached.count == entries.count, entries.allSatisfy({ condition($0) != nil }) { byFine[0] = noMatch }
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

    static func lock(
        _ entries: [GA4Schema.ConversionValue], window: ConversionWindow, fines: [Int]?,
        field: String = "conversionValue"
    ) -> Lock? {
        let reached = self.reached(entries)
        guard reached.contains(where: \.lockEnabled) else { return nil }
        if let fines, let byFine = functional(entries, fines: fines, \.lockEnabled, noMatch: false) {
            return .when(
                byFine.filter(\.value).keys.sorted().map { "\(field) == v\($0)" }.joined(separator: " or "))
        }
        if let fines {
            // The fine field says which value's entries hold first, so within one value only that value's earlier
            // entries block: `conversionValue == v10 and (level_up)` needs no negation of the entries before it
            // (a negated `purchase.sum >= 20` is a strict bound GA4 cannot write).
            var terms: [String] = []
            var seen: Set<Int> = []
            for fine in fines.prefix(reached.count) where seen.insert(fine).inserted {
                let own = zip(reached, fines).filter { $0.1 == fine }.map(\.0)
                switch firstHolding(
                    own.map { (sought: $0.lockEnabled, blocks: !$0.lockEnabled, condition: condition($0)) })
                {
                case .always: terms.append("\(field) == v\(fine)")
                case .never: continue
                case .text(let text): terms.append("\(field) == v\(fine) and (\(text))")
                }
            }
            return terms.isEmpty ? nil : .when(terms.map { terms.count > 1 ? "(\($0))" : $0 }.joined(separator: " or "))
        }
        // Locked when the first holding entry is a locked one.
        switch firstHolding(reached.map { (sought: $0.lockEnabled, blocks: !$0.lockEnabled, condition: condition($0)) })
        {
        case .always: return .always
        case .never: return nil
        case .text(let text): return .when(text)
        }
    }

    /// The entries up to the first that always holds (nothing after it is reached).
    static func reached(_ entries: [GA4Schema.ConversionValue]) -> [GA4Schema.ConversionValue] {
        guard let always = entries.firstIndex(where: { condition($0) == nil }) else { return entries }
        return Array(entries[...always])
    }
}

extension Diagnostic {
    /// A schema has no place for GA4's `applyConversionValues`, and an export without
    /// `--apply-conversion-values` writes false: GA4's SDK then stops setting values, and the schema no longer
    /// reaches the linked Google Ads accounts.
    fileprivate static let ga4ApplyConversionValuesNotCarried = Diagnostic.warning(
        .importJSON,
        "applyConversionValues is true: a schema does not carry it, so export with --apply-conversion-values to keep it (without it GA4's SDK stops setting values and linked Google Ads accounts no longer read the schema)",
        at: nil, subject: "applyConversionValues")
}

extension GA4Schema.ConversionValue {
    /// The coarse value the entry sends: never nil (nil stands for no entry holding, which sends nothing).
    var sentCoarseValue: CoarseValue? { coarseValue }
}
