import SkanCore

/// What Meta's SDK does with `cutoff_time` (FBSDKSKAdNetworkReporterV2, `shouldCutoff`): with a cutoff of C days,
/// "cut" is C = 0, or more than C days since install. While cut and in postback 1 (up to hour 48), an event is
/// dropped before it is recorded: it counts in no rule, in that window or any later one. Once cut, no fine value
/// is sent. So C >= 2 changes nothing Apple reports; C = 1 drops the events of hours 24-48; C = 0 (or no key) those
/// of hours 0-48 and every fine value.
///
/// A schema's conditions count events from first launch, so a rule that reads events cannot leave a span of them
/// out: an import that such a rule would read differently is refused, never carried approximately.
struct MetaCutoff {
    let days: Int

    /// The hours whose events the SDK never records, or nil when none.
    var droppedHours: ClosedRange<Int>? {
        switch days {
        case ...0: 0...48
        case 1: 24...48
        default: nil
        }
    }

    /// Where `source`'s rules read events the cutoff drops: the parts of the configuration, in order.
    func partsReadingDroppedEvents(of source: MetaConfiguration) -> [String] {
        guard droppedHours != nil else { return [] }
        var parts: [String] = []
        // With C = 0 the SDK sets no fine value and no coarse value in postback 1 at all: nothing there counts.
        if days >= 1, source.rules.contains(where: { !$0.events.isEmpty }) { parts.append("conversion_value_rules") }
        for index in (days >= 1 ? 1 : 2)...3
        where (source.coarseRules[index] ?? []).contains(where: { !$0.events.isEmpty }) {
            parts.append("coarse_cv_configs (postback_sequence_index \(index))")
        }
        return parts
    }
}

extension Diagnostic {
    /// `cutoff_time` drops events that rules of `parts` read.
    static func metaCutoffDropsEvents(_ cutoff: MetaCutoff, parts: [String]) -> Diagnostic {
        let hours = cutoff.droppedHours ?? 0...0
        return .error(
            .importJSON,
            "cutoff_time \(cutoff.days): Meta's SDK never records the events logged from hour \(hours.lowerBound) to hour \(hours.upperBound), in any window, and a schema cannot leave them out of the rules that read them (\(parts.joined(separator: ", "))); set cutoff_time to 2 or more in Meta's configuration, or keep this configuration in Meta's tools",
            at: nil, subject: "cutoff_time")
    }
}
