import SkanCore
import SkanSchema

/// A schema as the Google Ads API's `CustomerSkAdNetworkConversionValueSchema` describes it, in JSON (int64 as
/// strings, enums by name, one member of each oneof): each fine value with one `ConversionValueMapping` (the
/// whole hours since install the user was last active in, and the mapped events, each with one revenue range or
/// value and one occurrence range or count), and per postback the mappings of its low, medium and high coarse
/// values and one lock trigger. One mapping per value: exact when the activities that give each value are one
/// range of each event and of the hours; refused otherwise.
struct GoogleAdsExport {
    /// `measurementWindowHours`: window 1's end, after which the fine value is no longer reported.
    static let measurementWindowHours = 48

    let losses: [ExportLoss]
    let json: String

    init(schema: Schema, appID: String, resourceName: String? = nil, work: ExportWork = ExportWork()) {
        var ledger = LossLedger()
        var fineMappings: [JSONValue] = []
        // Fine values: every state of window 1, with the region of activities that reach it.
        let regions = StateRegions(schema: schema, window: .first, work: work)
        for loss in regions.losses {
            ledger.record(loss.kind, at: loss.location, fineValue: loss.fineValue, window: .first)
        }
        for state in regions.states {
            let fine = schema.fineValue(of: SchemaState(codes: state.codes.map { $0 ?? 0 }))
            guard
                let mapping = Self.mapping(
                    state.region, schema: schema, window: .first, what: "fine value \(fine)", fineValue: fine,
                    work: work, ledger: &ledger)
            else { continue }
            fineMappings.append(
                .object([("fineGrainedConversionValue", .integer(fine)), ("conversionValueMapping", mapping)]))
        }
        var postbacks: [JSONValue] = []
        for window in ConversionWindow.allCases {
            let coarse = CoarseRegions(schema: schema, window: window, work: work)
            for loss in coarse.losses { ledger.record(loss.kind, at: loss.location, fineValue: nil, window: window) }
            var mappings: [(String, JSONValue)] = []
            for value in [CoarseValue.low, .medium, .high] {
                guard let region = coarse.regions[value], !region.isEmpty else { continue }
                guard
                    let mapping = Self.mapping(
                        region, schema: schema, window: window, what: "coarse value \(value.rawValue)", fineValue: nil,
                        work: work, ledger: &ledger)
                else { continue }
                mappings.append(("\(value.rawValue)ConversionValueMapping", mapping))
            }
            var members: [(String, JSONValue)] = [
                ("postbackSequenceIndex", .integer(window.postbackSequenceIndex)),
                ("coarseGrainedConversionValueMappings", .object(mappings)),
            ]
            if let trigger = LockTrigger(schema: schema, window: window, states: regions.states) {
                switch trigger {
                case .event(let name): members.append(("lockWindowEvent", .string(name)))
                case .fine(let value): members.append(("lockWindowFineConversionValue", .integer(value)))
                case .coarse(let value):
                    members.append(("lockWindowCoarseConversionValue", .string(value.rawValue.uppercased())))
                case .none(let what):
                    ledger.record(.lockTrigger(what), at: schema.sites.locks[window], fineValue: nil, window: window)
                }
            }
            postbacks.append(.object(members))
        }
        ledger.recordExhaustion(of: work)
        losses = ledger.losses
        // An update operation names its resource; the resource's other member is the schema.
        json =
            JSONValue.object(
                (resourceName.map { [("resourceName", JSONValue.string($0))] } ?? []) + [
                    (
                        "schema",
                        .object([
                            ("appId", .string(appID)),
                            ("measurementWindowHours", .integer(Self.measurementWindowHours)),
                            ("fineGrainedConversionValueMappings", .array(fineMappings)),
                            ("postbackMappings", .array(postbacks)),
                        ])
                    )
                ]
            ).rendered() + "\n"
    }

    /// A region as one `ConversionValueMapping`; nil when it is empty or lies outside the window. A region of
    /// several ranges, an event that must not have been logged, or an hour bound whole hours cannot say is a loss
    /// (written approximately).
    static func mapping(
        _ region: [EventConjunction], schema: Schema, window: ConversionWindow, what: String, fineValue: Int?,
        work: ExportWork, ledger: inout LossLedger
    ) -> JSONValue? {
        guard !work.isExhausted else { return nil }
        let simplified = RegionSimplification.simplified(region, schema: schema, work: work)
        guard let first = simplified.first else { return nil }
        if simplified.count > 1 {
            ledger.record(
                .notOneRange("\(what) holds in \(simplified.count) separate ranges"), at: nil, fineValue: fineValue,
                window: window)
        }
        let span = window.hours
        // Whole hours since install: `hours >= a` is a minimum of a; `hours < b` a maximum of b - 1.
        var minimum = span.lowerBound
        if let low = first.minHours {
            if low == low.rounded(), !first.minHoursStrict {
                minimum = max(Int(low), minimum)
            } else {
                ledger.record(
                    .hourBound("hours \(first.minHoursStrict ? ">" : ">=") \(ConditionNumber.text(low))"), at: nil,
                    fineValue: fineValue, window: window)
                minimum = max(Int(low.rounded(.up)), minimum)
            }
        }
        var maximum = span.upperBound - 1
        if let high = first.maxHours {
            if high == high.rounded(), first.maxHoursStrict {
                maximum = min(Int(high) - 1, maximum)
            } else {
                ledger.record(
                    .hourBound("hours \(first.maxHoursStrict ? "<" : "<=") \(ConditionNumber.text(high))"), at: nil,
                    fineValue: fineValue, window: window)
                maximum = min(Int(high.rounded(.down)), maximum)
            }
        }
        // A value whose hours all fall outside the window (day 7 in window 1) is never reported in it: it is
        // left out, never written as a range whose minimum is past its maximum.
        guard minimum <= maximum else { return nil }
        var events: [JSONValue] = []
        for bound in first.bounds {
            let name = schema.events[bound.event].name
            if bound.maxCount == 0 {
                ledger.record(
                    .notLogged(name), at: schema.sites.event(bound.event), fineValue: fineValue, window: window)
                continue
            }
            if bound.hasStrictValue {
                ledger.record(
                    .strictAmount(
                        "\(name).sum \(bound.minValueStrict ? ">" : "<") …", inclusive: "a bound with '>=' or '<='"),
                    at: schema.sites.event(bound.event), fineValue: fineValue, window: window)
            }
            events.append(mappedEvent(bound, schema: schema))
        }
        return .object([
            ("minTimePostInstallHours", .string(String(minimum))),
            ("maxTimePostInstallHours", .string(String(maximum))),
            ("mappedEvents", .array(events)),
        ])
    }

    static func mappedEvent(_ bound: EventBounds, schema: Schema) -> JSONValue {
        let event = schema.events[bound.event]
        var members: [(String, JSONValue)] = [("mappedEventName", .string(event.name))]
        if let currency = event.currency { members.append(("currencyCode", .string(currency))) }
        if let low = bound.minValue, low == bound.maxValue {
            members.append(("eventRevenueValue", .number(low)))
        } else if bound.minValue != nil || bound.maxValue != nil {
            var range: [(String, JSONValue)] = []
            if let low = bound.minValue { range.append(("minEventRevenue", .number(low))) }
            if let high = bound.maxValue { range.append(("maxEventRevenue", .number(high))) }
            members.append(("eventRevenueRange", .object(range)))
        }
        if let low = bound.minCount, low == bound.maxCount {
            members.append(("eventCounter", .string(String(low))))
        } else if bound.minCount != nil || bound.maxCount != nil {
            var range: [(String, JSONValue)] = []
            if let low = bound.minCount { range.append(("minEventCount", .string(String(low)))) }
            if let high = bound.maxCount { range.append(("maxEventCount", .string(String(high)))) }
            members.append(("eventOccurrenceRange", .object(range)))
        }
        return .object(members)
    }
}
