import SkanCompiler
import SkanCore

/// The rows of the `skan_schema` table of Google's App Reporting Pack (app_id, skan_mapped_event,
/// skan_conversion_value, skan_event_count, skan_event_value_low, skan_event_value_high, skan_event_value_mean)
/// as CSV: one row per event bound of each window-1 entry of the GA4 list, so that a warehouse joins decoded fine
/// values to the events they stand for. A bound not given is an empty cell; the mean is that of low and high when
/// both are given.
struct AppReportingPackRows {
    /// The table's columns, in its order.
    static let columns = [
        "app_id", "skan_mapped_event", "skan_conversion_value", "skan_event_count", "skan_event_value_low",
        "skan_event_value_high", "skan_event_value_mean",
    ]

    let csv: String

    init(schema: Schema, list: FirstMatchList, appID: String) {
        var lines = [Self.columns.joined(separator: ",")]
        var seen = Set<[String]>()
        for entry in list.windows[.first] {
            guard let fine = entry.fineValue else { continue }
            for bounds in entry.when.bounds {
                let low = bounds.minValue.map(ConditionNumber.text) ?? ""
                let high = bounds.maxValue.map(ConditionNumber.text) ?? ""
                let mean = bounds.minValue.flatMap { low in bounds.maxValue.map { ConditionNumber.text((low + $0) / 2) }
                }
                let row = [
                    appID, schema.events[bounds.event].name, String(fine), bounds.minCount.map(String.init) ?? "", low,
                    high, mean ?? "",
                ]
                // A fine value reached through several entries lists each bound once.
                if seen.insert(row).inserted { lines.append(row.map(CSVField.escaped).joined(separator: ",")) }
            }
        }
        csv = lines.joined(separator: "\r\n") + "\r\n"
    }
}
