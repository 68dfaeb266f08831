public import SkanCore
import SkanSchema

/// A Google Ads `CustomerSkAdNetworkConversionValueSchema` written as a schema with events, meaning what the
/// resource describes: in window 1 the fine value whose mapping holds (`conversionValue`, a derived field; where
/// none does, the app sends nothing: `nothing when conversionValue == unmapped`), in each postback the coarse value
/// whose mapping holds (else nothing), and the lock triggers. A mapping holds when the whole hours since install
/// lie in its range and each mapped event's count and revenue sum (since install) lie in theirs; the resource
/// describes each value with one mapping, so two that can hold together are ambiguous, and the schema takes the
/// first (a warning names them).
public struct GoogleAdsImport: Sendable {
    /// The schema, each line with the mapping it comes from.
    public let imported: ImportedSchema
    /// Names that are not identifiers (errors), and mappings that overlap or locks a schema cannot say (warnings).
    public let diagnostics: [Diagnostic]

    /// The schema's text (before `skanc fmt`'s layout).
    public var text: String { imported.text }

    /// `source` imported as schema `name`, revenue in `currency` where a mapping names none, with a header naming
    /// `file`.
    public init(_ source: GoogleAdsSchema, name: String, currency: String, file: String) {
        var problems: [Diagnostic] = []
        var mappings = source.fineMappings.map(\.mapping)
        for window in ConversionWindow.allCases {
            guard let postback = source.postbacks[window] else { continue }
            mappings += [CoarseValue.high, .medium, .low].compactMap { postback.coarse[$0] }
        }
        // Events in order of first use; an event with a revenue bound is a value event in its currency.
        var events: [(name: String, currency: String?, origin: String)] = []
        for mapping in mappings {
            for (index, event) in mapping.events.enumerated() {
                let valued = event.minRevenue != nil || event.maxRevenue != nil || event.revenueValue != nil
                let code = valued ? (event.currency ?? currency).uppercased() : nil
                if let known = events.firstIndex(where: { $0.name == event.name }) {
                    if events[known].currency == nil { events[known].currency = code }
                } else {
                    events.append((event.name, code, "\(mapping.path).mappedEvents[\(index)]"))
                }
            }
        }
        for event in events where !GA4Import.isIdentifier(event.name) {
            problems.append(
                .error(
                    .importJSON,
                    "the event name '\(TerminalText.visible(event.name))' is not a schema identifier (a letter or '_', then letters, digits and '_'); rename it in Google Ads",
                    at: nil, subject: event.origin + ".mappedEventName"))
        }
        problems += Self.overlaps(source.fineMappings.map { ("fine value \($0.fineValue)", $0.mapping) })
        var field = "conversionValue"
        while events.contains(where: { $0.name == field }) { field += "_" }
        let used = Set(source.fineMappings.map(\.fineValue))
        let unmapped = (0...63).first { !used.contains($0) }

        var schema = ImportedSchema()
        schema.append(contentsOf: [
            "# Imported from a Google Ads CustomerSkAdNetworkConversionValueSchema: \(file)",
            "# It means what the resource describes: the fine value and each postback's coarse value whose mapping",
            "# holds (whole hours since install, counts and revenue since install, bounds inclusive); where none",
            "# does, nothing is sent.",
            "schema \(name)",
            "version 2",
            "",
        ])
        for event in events {
            schema.append("event \(event.name)" + (event.currency.map { " value \($0)" } ?? ""), from: event.origin)
        }
        schema.append("")
        schema.append("field \(field) at bits 0...5 \"The fine value whose mapping holds\" {")
        for (fine, mapping) in source.fineMappings {
            schema.append("  v\(fine) = \(fine) when \(Self.condition(mapping))", from: mapping.path)
        }
        if let unmapped {
            schema.append("  unmapped = \(unmapped) \"no mapping holds\" otherwise")
        } else {
            problems.append(
                .error(
                    .importJSON,
                    "every fine value 0...63 has a mapping, so none is left for 'no mapping holds'; leave one out",
                    at: nil, subject: "schema.fineGrainedConversionValueMappings"))
        }
        schema.append("}")
        for window in ConversionWindow.allCases {
            let postback = source.postbacks[window]
            schema.append("")
            schema.append("coarse window \(window.number) {", from: postback?.path)
            let coarse = [CoarseValue.high, .medium, .low].compactMap { value in
                postback?.coarse[value].map { (value, $0) }
            }
            problems += Self.overlaps(coarse.map { ("coarse value \($0.0.rawValue)", $0.1) })
            for (value, mapping) in coarse {
                schema.append("  \(value.rawValue) when \(Self.condition(mapping))", from: mapping.path)
            }
            if window == .first, unmapped != nil {
                // A fine value is sent with a coarse value: low, where no coarse mapping holds.
                schema.append("  nothing when \(field) == unmapped")
                schema.append("  low otherwise")
            } else {
                schema.append("  nothing otherwise")
            }
            schema.append("}")
            switch postback?.lock {
            case .event(let event)?:
                if events.contains(where: { $0.name == event }) {
                    schema.append("lock window \(window.number) when \(event)", from: postback?.path)
                } else {
                    problems.append(Self.lockProblem("lockWindowEvent '\(event)' is no mapped event", postback))
                }
            case .fineValue(let fine)?:
                if window == .first, used.contains(fine) {
                    schema.append("lock window 1 when \(field) == v\(fine)", from: postback?.path)
                } else {
                    problems.append(
                        Self.lockProblem(
                            window == .first
                                ? "lockWindowFineConversionValue \(fine) has no mapping"
                                : "lockWindowFineConversionValue in postback \(window.postbackSequenceIndex), which carries no fine value",
                            postback))
                }
            case .coarseValue(let value)?:
                if let mapping = postback?.coarse[value] {
                    schema.append(
                        "lock window \(window.number) when \(Self.condition(mapping))", from: postback?.path)
                } else {
                    problems.append(
                        Self.lockProblem("lockWindowCoarseConversionValue \(value.rawValue) has no mapping", postback))
                }
            case nil: break
            }
        }
        imported = schema
        diagnostics = problems
    }

    /// A mapping as a condition: its hours, then each event's bounds.
    static func condition(_ mapping: GoogleAdsSchema.Mapping) -> String {
        var terms: [String] = []
        if mapping.minHours > 0 { terms.append("hours >= \(mapping.minHours)") }
        terms.append("hours < \(mapping.maxHours + 1)")
        for event in mapping.events {
            if let counter = event.counter {
                terms.append("\(event.name).count == \(counter)")
            } else {
                if let minimum = event.minCount { terms.append("\(event.name).count >= \(minimum)") }
                if let maximum = event.maxCount { terms.append("\(event.name).count <= \(maximum)") }
            }
            if let value = event.revenueValue {
                terms.append("\(event.name).sum == \(ConditionNumber.text(value))")
            } else {
                if let minimum = event.minRevenue {
                    terms.append("\(event.name).sum >= \(ConditionNumber.text(minimum))")
                }
                if let maximum = event.maxRevenue {
                    terms.append("\(event.name).sum <= \(ConditionNumber.text(maximum))")
                }
            }
        }
        return terms.joined(separator: " and ")
    }

    /// The first pair of `mappings` some activity meets both of, as a warning at the second.
    static func overlaps(_ mappings: [(String, GoogleAdsSchema.Mapping)]) -> [Diagnostic] {
        for (index, (name, mapping)) in mappings.enumerated() {
            for (earlier, earlierMapping) in mappings[..<index] where Box(mapping).meets(Box(earlierMapping)) {
                return [
                    .warning(
                        .importJSON,
                        "the mappings of \(earlier) and \(name) can both hold, which the resource leaves undecided; the schema takes \(earlier)",
                        at: nil, subject: mapping.path)
                ]
            }
        }
        return []
    }

    static func lockProblem(_ what: String, _ postback: GoogleAdsSchema.PostbackMapping?) -> Diagnostic {
        .warning(.importJSON, "\(what): not carried", at: nil, subject: postback?.path ?? "postbackMappings")
    }
}

/// A mapping as a box of closed ranges: hours, and each event's count and revenue sum.
private struct Box {
    var ranges: [String: ClosedRange<Double>] = [:]

    init(_ mapping: GoogleAdsSchema.Mapping) {
        ranges["hours"] = Double(mapping.minHours)...Double(max(mapping.maxHours, mapping.minHours))
        for event in mapping.events {
            // A range the reading refused (its lower bound above its upper) is taken as its lower bound alone.
            let lowest = Double(event.minCount ?? 0)
            let count =
                event.counter.map { Double($0)...Double($0) }
                ?? lowest...max(lowest, Double(event.maxCount ?? Int.max))
            let sum = event.revenueValue.map { $0...$0 } ?? (event.minRevenue ?? 0)...(event.maxRevenue ?? .infinity)
            ranges["count " + event.name] = count
            ranges["sum " + event.name] = sum.lowerBound <= sum.upperBound ? sum : sum.lowerBound...sum.lowerBound
        }
    }

    /// Whether some activity lies in both: every range they share meets.
    func meets(_ other: Box) -> Bool {
        ranges.allSatisfy { key, range in other.ranges[key].map { $0.overlaps(range) } ?? true }
    }
}
