import SkanCore
import SkanSchema

/// A schema as Branch's Conversion Value Mapping Partner API hands it to ad networks (`/v3/partners/…/
/// conversion-value-mappings`): `app-id`, `update` (`yyyy-mm-dd hh:mm:ss.sss`), and per postback
/// (`postback-sequence-index-0` to `-2`) a list of conversion values (`"0"`…`"63"` in the first, `low`, `medium`,
/// `high` in all three), each with the events it stands for: `{"values": {"name": ["eq", E]}, "locked": B}`,
/// with `"event_data.revenue": ["between", LOW, HIGH]` (whole numbers) where the revenue is bounded.
///
/// It is the decoding direction, as the App Reporting Pack's rows are: a network reads which events a value
/// means. Each value lists one conversion event per entry of the schema's first-match list that gives it (the
/// same list the GA4 export writes), so a postback with the value had one of them; an entry that always holds is
/// Branch's own install event, as in Branch's example. What one event name and one whole-number revenue range
/// cannot say is refused: two events at once, a count, an event that must not have been logged, an open or
/// fractional revenue range. Branch does not say whether `between` includes its ends; skanc writes both ends
/// as bounds the schema keeps inclusively (docs/Export.md), so a strict bound is refused as elsewhere.
struct BranchMappingExport {
    /// Branch's event for the install itself, which its example maps to value 0 and `low`.
    static let installEvent = "MOBILE_APP_INSTALL"
    /// Entries per window the export follows, at most: Branch documents no limit, this bounds the work.
    static let maximumEntries = 1024

    let list: FirstMatchList
    let losses: [ExportLoss]
    let json: String

    init(schema: Schema, appID: String, updated: String, work: ExportWork) {
        let list = FirstMatchList(schema: schema, entryLimit: Self.maximumEntries, eventLimit: 1, work: work)
        var ledger = LossLedger()
        var postbacks: [(String, JSONValue)] = []
        for window in ConversionWindow.allCases {
            // Each value's events, once each, in list order (equal entries differ only in what they negate).
            var fine: [Int: [(text: String, json: JSONValue)]] = [:]
            var coarse: [CoarseValue: [(text: String, json: JSONValue)]] = [:]
            for entry in list.windows[window] {
                let json = Self.conversionEvent(entry, schema: schema, window: window, ledger: &ledger)
                let event = (text: json.rendered(), json: json)
                if let value = entry.fineValue, !fine[value, default: []].contains(where: { $0.text == event.text }) {
                    fine[value, default: []].append(event)
                }
                if let value = entry.coarseValue,
                    !coarse[value, default: []].contains(where: { $0.text == event.text })
                {
                    coarse[value, default: []].append(event)
                }
            }
            let values =
                fine.keys.sorted().map { Self.conversionValue(String($0), fine[$0]!.map(\.json)) }
                + CoarseValue.allCases.compactMap { value in
                    coarse[value].map { Self.conversionValue(value.rawValue, $0.map(\.json)) }
                }
            postbacks.append(("postback-sequence-index-\(window.number - 1)", .array(values)))
        }
        self.list = list
        self.losses = list.losses + ledger.losses
        self.json =
            JSONValue.object([
                ("app-id", .decimal(appID)), ("update", .string(updated)), ("mapping", .object(postbacks)),
            ]).rendered() + "\n"
    }

    private static func conversionValue(_ value: String, _ events: [JSONValue]) -> JSONValue {
        .object([("conversion-value", .string(value)), ("conversion-event", .array(events))])
    }

    /// The entry as one conversion event; what it cannot say is recorded in `ledger` and left out.
    private static func conversionEvent(
        _ entry: FirstMatchEntry, schema: Schema, window: ConversionWindow, ledger: inout LossLedger
    ) -> JSONValue {
        var values: [(String, JSONValue)] = [("name", .array([.string("eq"), .string(installEvent)]))]
        // More than one event is `tooManyEvents`, recorded by the list; the first is written.
        if let bound = entry.when.bounds.first {
            let name = schema.events[bound.event].name
            let site = schema.sites.event(bound.event)
            values = [("name", .array([.string("eq"), .string(name)]))]
            if bound.maxCount == 0 {
                ledger.record(.notLogged(name), at: site, fineValue: entry.fineValue, window: window)
            } else if !Self.meansLogged(bound) || (bound.minCount ?? 0) > 1 || bound.maxCount != nil {
                ledger.record(
                    .notOccurrence(Self.countText(bound, name: name)), at: site, fineValue: entry.fineValue,
                    window: window)
            }
            if bound.minValue != nil || bound.maxValue != nil {
                if let low = bound.minValue, let high = bound.maxValue, let low = Int(exactly: low),
                    let high = Int(exactly: high)
                {
                    values.append(("event_data.revenue", .array([.string("between"), .integer(low), .integer(high)])))
                } else {
                    ledger.record(
                        .revenueRange(Self.rangeText(bound, name: name)), at: site, fineValue: entry.fineValue,
                        window: window)
                }
            }
        }
        return .object([("values", .object(values)), ("locked", .bool(entry.lock))])
    }

    /// Whether the bounds say the event was logged: a count of at least one, or a sum above zero.
    private static func meansLogged(_ bound: EventBounds) -> Bool {
        (bound.minCount ?? 0) >= 1 || (bound.minValue ?? 0) > 0
    }

    private static func countText(_ bound: EventBounds, name: String) -> String {
        var parts: [String] = []
        if let low = bound.minCount { parts.append("\(name).count >= \(low)") }
        if let high = bound.maxCount { parts.append("\(name).count <= \(high)") }
        return parts.isEmpty ? "\(name) without a count" : parts.joined(separator: " and ")
    }

    private static func rangeText(_ bound: EventBounds, name: String) -> String {
        var parts: [String] = []
        if let low = bound.minValue { parts.append("\(name).sum >= \(ConditionNumber.text(low))") }
        if let high = bound.maxValue { parts.append("\(name).sum <= \(ConditionNumber.text(high))") }
        return parts.joined(separator: " and ")
    }

    /// `2026-12-04 07:35:53.000`: Branch's `update` form, in UTC.
    static func updateTime(unixSeconds seconds: Int) -> String {
        let parts = UTCTime.parts(seconds)
        func pad(_ number: Int, _ width: Int) -> String {
            String(repeating: "0", count: max(0, width - String(number).count)) + String(number)
        }
        return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2)) "
            + "\(pad(parts.hour, 2)):\(pad(parts.minute, 2)):\(pad(parts.second, 2)).000"
    }

    /// Whether `text` has Branch's `update` form, `yyyy-mm-dd hh:mm:ss.sss`, with a month, day and time that can be.
    static func isUpdateTime(_ text: String) -> Bool {
        let shape = Array("dddd-dd-dd dd:dd:dd.ddd".utf8)
        let bytes = Array(text.utf8)
        guard bytes.count == shape.count,
            zip(bytes, shape).allSatisfy({ byte, expected in
                expected == UInt8(ascii: "d") ? (0x30...0x39).contains(byte) : byte == expected
            })
        else { return false }
        func number(_ range: Range<Int>) -> Int { Int(String(decoding: bytes[range], as: UTF8.self))! }
        return UTCTime.isDate(year: number(0..<4), month: number(5..<7), day: number(8..<10)) && number(11..<13) < 24
            && number(14..<16) < 60 && number(17..<19) < 60
    }
}
