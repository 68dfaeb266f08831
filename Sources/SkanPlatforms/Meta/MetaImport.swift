public import SkanCore
import SkanSchema

/// Meta's configuration written as a schema with events, meaning what Meta's SDK computes
/// (FBSDKSKAdNetworkReporterV2): the fine value of the highest rule whose events were all logged (an event with
/// `values` matching when its sum in one of those currencies is over the amount), each postback's coarse value
/// from its config (high first), and each window's locks by time or events. Events with values become one event
/// per currency: the event itself in the default currency, `NAME_jpy` in yen; the app logs each amount as the
/// event of its currency (the SDK counts a currency no rule names as the default).
public struct MetaImport: Sendable {
    /// The schema, each line with the part of the configuration it comes from.
    public let imported: ImportedSchema
    /// Errors (names that are not identifiers) and warnings (what is carried approximately).
    public let diagnostics: [Diagnostic]

    /// The schema's text (before `skanc fmt`'s layout).
    public var text: String { imported.text }

    /// `source` imported as schema `name`, with a header naming `file`.
    public init(_ source: MetaConfiguration, name: String, file: String) {
        var builder = MetaSchemaBuilder(source: source)
        builder.build(name: name, file: file)
        imported = builder.schema
        diagnostics = source.warnings + builder.diagnostics
    }
}

private struct MetaSchemaBuilder {
    let source: MetaConfiguration
    /// The currencies the SDK keeps sums in: the default, then those the conversion value rules name.
    let currencies: [String]
    var schema = ImportedSchema()
    /// The part of the configuration the lines being written come from.
    var origin: String?
    var diagnostics: [Diagnostic] = []
    /// Whether no fine value rule may match (then the fine value is 0 and the SDK sent nothing in postback 1).
    var fineValueCanStayZero = true
    /// Each Meta event with values in some rule: it is one schema event per currency.
    var valued: Set<String> = []
    var events: [String] = []

    init(source: MetaConfiguration) {
        self.source = source
        var currencies = [source.defaultCurrency]
        for rule in source.rules {
            for event in rule.events {
                for value in event.values ?? [] where !currencies.contains(value.currency) {
                    currencies.append(value.currency)
                }
            }
        }
        self.currencies = currencies
    }

    /// The schema event of `event` in `currency`.
    func eventName(_ event: String, currency: String) -> String {
        let base = Self.schemaName(of: event)
        return currency == source.defaultCurrency ? base : "\(base)_\(currency.lowercased())"
    }

    /// A Meta event name as a schema identifier: the spaces and hyphens the SDK's names may hold become `_`, and
    /// a name starting with a digit gets a leading `_` (`level-up 2` is `level_up_2`). A comment at each renamed
    /// event says so, since the app logs it under the schema's name.
    static func schemaName(of event: String) -> String {
        let replaced = String(event.map { $0 == " " || $0 == "-" ? "_" : $0 })
        return replaced.first?.isNumber == true ? "_" + replaced : replaced
    }

    mutating func build(name: String, file: String) {
        let all =
            source.rules.flatMap(\.events) + source.coarseRules.values.flatMap { $0.flatMap(\.events) }
            + source.lockRules.flatMap(\.events)
        for event in all where !events.contains(event.name) { events.append(event.name) }
        valued = Set(all.filter { $0.values != nil }.map(\.name))
        schema.append(contentsOf: [
            "# Imported from Meta's SKAdNetwork conversion configuration: \(file)",
            "# It means what Meta's SDK computes: the highest conversion value whose events were all logged (with",
            "# values: a sum over the amount in one of the currencies), each postback's coarse value, high first, and",
            "# the locks. An event with values is one event per currency (`purchase_jpy` in yen): log each amount as",
            "# the event of its currency.",
            "schema \(name)",
            "version 1",
            "",
        ])
        origin = "conversion_value_rules"
        var declared: Set<String> = []
        for event in events {
            let names =
                valued.contains(event)
                ? currencies.map { (eventName(event, currency: $0), $0) } : [(Self.schemaName(of: event), "")]
            for (schemaName, currency) in names {
                guard GA4Import.isIdentifier(schemaName), declared.insert(schemaName).inserted else {
                    diagnostics.append(
                        .error(
                            .importJSON,
                            "the event '\(TerminalText.visible(event))' is the schema event '\(TerminalText.visible(schemaName))', which is not an identifier or is another event's too; rename it in Meta's configuration",
                            at: nil, subject: source.eventPaths[event]))
                    continue
                }
                if schemaName != event, currency.isEmpty || currency == source.defaultCurrency {
                    line("# Meta's event '\(event)' is the schema's '\(schemaName)': log it under that name.")
                }
                line("event \(schemaName)" + (currency.isEmpty ? "" : " value \(currency)"))
            }
        }
        line("")
        let cutoff = MetaCutoff(days: source.cutoffDays)
        let parts = cutoff.partsReadingDroppedEvents(of: source)
        if !parts.isEmpty { diagnostics.append(.metaCutoffDropsEvents(cutoff, parts: parts)) }
        fineField()
        for window in ConversionWindow.allCases { coarseAndLock(window) }
    }

    /// An event of a rule as a condition: logged (in any currency), or over its amount in one of its currencies
    /// the SDK keeps; nil when it can never match (its values are all in currencies the SDK does not keep).
    func condition(_ event: MetaConfiguration.Event) -> String? {
        guard let values = event.values else {
            let names =
                valued.contains(event.name)
                ? currencies.map { eventName(event.name, currency: $0) } : [Self.schemaName(of: event.name)]
            return GA4Import.any(names)
        }
        let terms = values.filter { currencies.contains($0.currency) }.map {
            "\(eventName(event.name, currency: $0.currency)).sum > \(ConditionNumber.text($0.amount))"
        }
        return terms.isEmpty ? nil : GA4Import.any(terms)
    }

    /// All of `events` matched; nil when one never can; "" when there are none (always).
    func condition(_ events: [MetaConfiguration.Event]) -> String? {
        var terms: [String] = []
        for event in events {
            guard let term = condition(event) else { return nil }
            terms.append(term.contains(" or ") && events.count > 1 ? "(\(term))" : term)
        }
        return terms.joined(separator: " and ")
    }

    mutating func line(_ text: String) {
        schema.append(text, from: origin)
    }

    mutating func fineField() {
        origin = "conversion_value_rules"
        line("field conversionValue at bits 0...5 \"Meta's conversion value: the highest rule that matches\" {")
        var runs: [(value: Int, conditions: [String])] = []
        var always = false
        for rule in source.rules where rule.conversionValue > 0 {
            guard let condition = condition(rule.events) else { continue }
            if condition.isEmpty {
                // A rule without events always matches: nothing below it is reached.
                runs.append((rule.conversionValue, []))
                always = true
                break
            }
            if runs.last?.value == rule.conversionValue {
                runs[runs.count - 1].conditions.append(condition)
            } else {
                runs.append((rule.conversionValue, [condition]))
            }
        }
        let last = always ? runs.removeLast().value : 0
        fineValueCanStayZero = !always
        runs.removeAll { $0.value == last }
        if source.cutoffDays == 0 {
            // The SDK never sets a fine value when cutoff_time is 0 (or missing).
            diagnostics.append(
                .warning(
                    .importJSON,
                    "cutoff_time is 0 or missing: Meta's SDK never sets a fine value then; the schema's fine value is always 0",
                    at: nil, subject: "cutoff_time"))
            runs = []
        }
        for run in runs {
            line("  v\(run.value) = \(run.value) when \(GA4Import.any(run.conditions))")
        }
        line("  v\(source.cutoffDays == 0 ? 0 : last) = \(source.cutoffDays == 0 ? 0 : last) otherwise")
        line("}")
    }

    mutating func coarseAndLock(_ window: ConversionWindow) {
        origin = "coarse_cv_configs (postback_sequence_index \(window.number))"
        line("")
        line("coarse window \(window.number) {")
        let stopped = window == .first && source.cutoffDays == 0
        let rules = source.coarseRules[window.number] ?? []
        if stopped, !rules.isEmpty {
            diagnostics.append(
                .metaCoarseUnused(window, "cutoff_time is 0: the SDK sets no coarse value in postback 1"))
        }
        // The SDK updates only when a rule matches (a fine value rule in postback 1, a coarse rule in its own
        // postback): where none does, the schema sends nothing.
        for (index, rule) in rules.enumerated() where !stopped {
            guard let condition = condition(rule.events) else {
                diagnostics.append(
                    .metaCoarseUnused(
                        window,
                        "the '\(rule.value.rawValue)' rule's amounts are all in currencies no conversion value rule names, which the SDK does not keep: it never matches"
                    ))
                continue
            }
            if condition.isEmpty {
                line("  \(rule.value.rawValue) otherwise")
                line("}")
                if index + 1 < rules.count {
                    diagnostics.append(
                        .metaCoarseUnused(
                            window,
                            "the '\(rule.value.rawValue)' rule has no events and always matches: the rules after it are never reached"
                        ))
                }
                return lockRules(window)
            }
            line("  \(rule.value.rawValue) when \(condition)")
        }
        if window == .first, !stopped, fineValueCanStayZero {
            // A fine value rule matched: the SDK sent it (with no coarse value, which a schema's update always
            // has: low here). None did: nothing was sent.
            line("  \(CoarseRule.nothing) when conversionValue == v0")
            line("  low otherwise")
        } else if window == .first, !stopped {
            line("  low otherwise")
        } else {
            line("  \(CoarseRule.nothing) otherwise")
        }
        line("}")
        lockRules(window)
    }

    mutating func lockRules(_ window: ConversionWindow) {
        origin = "lock_window_rules (postback_sequence_index \(window.number))"
        var alternatives: [String] = []
        let span = window.hours
        for rule in source.lockRules where rule.postbackSequenceIndex == window.number {
            if let hours = rule.hours {
                // A time before the window's start locks at its first update; one past its end never does.
                guard hours < Double(span.upperBound) else {
                    diagnostics.append(
                        .metaLockUnused(
                            window,
                            "its time \(ConditionNumber.text(hours)) is at or past the window's end (hour \(span.upperBound)): it never locks"
                        ))
                    continue
                }
                alternatives.append("hours >= \(ConditionNumber.text(max(hours, Double(span.lowerBound))))")
            } else if let condition = condition(rule.events), !condition.isEmpty {
                alternatives.append(condition)
            } else {
                diagnostics.append(.metaLockUnused(window, "an event lock without events the SDK keeps never locks"))
            }
        }
        guard !alternatives.isEmpty else { return }
        line("")
        line("lock window \(window.number) when \(GA4Import.any(alternatives))")
    }
}

extension Diagnostic {
    /// Coarse rules of `window` that the schema leaves out, and why.
    fileprivate static func metaCoarseUnused(_ window: ConversionWindow, _ why: String) -> Diagnostic {
        .warning(
            .importJSON, "\(why); left out of the schema's coarse window \(window.number)", at: nil,
            subject: "coarse_cv_configs (postback_sequence_index \(window.number))")
    }

    /// A lock rule of `window` that the schema leaves out, and why.
    fileprivate static func metaLockUnused(_ window: ConversionWindow, _ why: String) -> Diagnostic {
        .warning(
            .importJSON, "a lock rule of postback \(window.number): \(why); left out", at: nil,
            subject: "lock_window_rules (postback_sequence_index \(window.number))")
    }
}
