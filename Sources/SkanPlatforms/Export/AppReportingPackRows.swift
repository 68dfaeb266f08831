import SkanCore
import SkanSchema

/// The rows of the `skan_schema` table of Google's App Reporting Pack (app_id, skan_mapped_event,
/// skan_conversion_value, skan_event_count, skan_event_value_low, skan_event_value_high, skan_event_value_mean)
/// as CSV: one row per fine value and event of the window-1 entries of the GA4 list, so that a warehouse joins
/// decoded fine values to the events they stand for.
///
/// The pack's decoder (`ios_skan_decoder.sql`) joins postbacks to these rows on app id and value and groups by
/// event, so two rows for one value and event would count each postback twice. A value reached through several
/// entries (`purchase.sum >= 100 or purchase.count >= 5`) gets one row per event holding what every entry
/// guarantees: the lowest count and value floor, the highest ceiling, and an empty cell where some entry gives
/// none. The mean is that of low and high when both are given.
struct AppReportingPackRows {
    /// The table's columns, in its order.
    static let columns = [
        "app_id", "skan_mapped_event", "skan_conversion_value", "skan_event_count", "skan_event_value_low",
        "skan_event_value_high", "skan_event_value_mean",
    ]

    let csv: String

    init(schema: Schema, list: FirstMatchList, appID: String) {
        var lines = [Self.columns.joined(separator: ",")]
        var order: [(fine: Int, event: Int)] = []
        var entries: [Int: [EventConjunction]] = [:]
        for entry in list.windows[.first] {
            guard let fine = entry.fineValue else { continue }
            entries[fine, default: []].append(entry.when)
            for bounds in entry.when.bounds where !order.contains(where: { $0 == (fine, bounds.event) }) {
                order.append((fine, bounds.event))
            }
        }
        for (fine, event) in order {
            // What each entry of the value says of the event; an entry that does not name it bounds nothing.
            let said = entries[fine, default: []].map { $0.bounds.first { $0.event == event } }
            let minCount = Self.hull(said.map { $0?.minCount }, min)
            let low = Self.hull(said.map { $0?.minValue }, min)
            let high = Self.hull(said.map { $0?.maxValue }, max)
            let mean = low.flatMap { low in high.map { ConditionNumber.text((low + $0) / 2) } }
            let row = [
                appID, schema.events[event].name, String(fine), minCount.map(String.init) ?? "",
                low.map(ConditionNumber.text) ?? "", high.map(ConditionNumber.text) ?? "", mean ?? "",
            ]
            lines.append(row.map(CSVField.escaped).joined(separator: ","))
        }
        csv = lines.joined(separator: "\r\n") + "\r\n"
    }

    /// The bound every entry keeps: nil when one gives none, else the loosest (`min` of floors, `max` of ceilings).
    static func hull<Bound>(_ bounds: [Bound?], _ loosest: (Bound, Bound) -> Bound) -> Bound? {
        guard let first = bounds.first, var result = first else { return nil }
        for bound in bounds.dropFirst() {
            guard let bound else { return nil }
            result = loosest(result, bound)
        }
        return result
    }
}
