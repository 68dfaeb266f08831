import SkanCore
import SkanPostbacks
import SkanSchema

extension PostbackReport {
    /// The columns of the CSV report: the grouping columns, then `window`, `figure`, `field`, `item`, `value`.
    public var csvColumns: [String] {
        var names: [String] = []
        for name in groupings.flatMap(\.keyNames) where !names.contains(name) {
            names.append(name)
        }
        return names + ["window", "figure", "field", "item", "value"]
    }

    /// The report as one long table (RFC 4180, CRLF), a figure a row, for spreadsheets and dataframes: per group
    /// and window `postbacks`, `contributed`, `reengagements`, `installs`, `with_fine_value`, `with_coarse_value`,
    /// `without_value`, `tier` (item 0-3 or unknown), `case` (field and case), `coarse` (item low, medium, high);
    /// per group and revenue field `revenue_currency` (the ISO 4217 code every amount of the field is in, when the
    /// schema says it), `revenue_postbacks`, `revenue_low`, `revenue_mid`, `revenue_high` (item empty for the
    /// total, else the case), over all installs (won window-1 postbacks but re-engagements) `installs_low` and
    /// `installs_high` (the hard bounds; high empty when unbounded), over the re-engagements apart
    /// `reengagements_low` and `reengagements_high`, and for the installs without a fine value `estimate_installs`, `estimate_mid`,
    /// `estimate_low`, `estimate_high` (a model: `InstallRevenue.Estimate`); with a cost file, per group
    /// `cost_spend` and `cost_per_install` (item the currency), `cost_rows`, and per revenue field `roas_low`,
    /// `roas_high` (the ratio's hard bounds over all installs; high empty when unbounded) and `roas_estimate`; then, with no group, `cost_unmatched_spend` (item the currency) and
    /// `cost_unmatched_rows` for cost rows that match no group, and `not_ok` rows per status.
    public var csv: String { String(decoding: csvBytes, as: UTF8.self) }

    /// `csv` as UTF-8, written straight into bytes: a report of 50,000 groups runs to 100 MB, and a row built as
    /// an array of strings and joined ran at 10 MB/s. Each group's key cells are escaped once.
    public var csvBytes: [UInt8] {
        let columns = csvColumns
        let keyColumns = columns.dropLast(5)
        var out = Array((columns.joined(separator: ",") + "\r\n").utf8)
        func cell(_ text: String) {
            out.append(contentsOf: CSVField.escaped(text).utf8)
        }
        func row(_ key: [UInt8], _ window: String, _ figure: String, _ field: String, _ item: String, _ value: String) {
            out.append(contentsOf: key)
            cell(window)
            for text in [figure, field, item, value] {
                out.append(0x2C)
                cell(text)
            }
            out.append(contentsOf: [0x0D, 0x0A])
        }
        /// The key cells of a row, escaped, each followed by its comma.
        func prefix(_ key: [String]) -> [UInt8] {
            Array(key.map { CSVField.escaped($0) + "," }.joined().utf8)
        }
        for group in groups {
            let key = prefix(keyColumns.map { name in group.by.first { $0.name == name }?.text ?? "" })
            for window in group.windows {
                let number = String(window.number)
                row(key, number, "postbacks", "", "", String(window.postbacks))
                row(key, number, "contributed", "", "", String(window.contributed))
                row(key, number, "reengagements", "", "", String(window.reengagements))
                row(key, number, "installs", "", "", String(window.installs))
                row(key, number, "with_fine_value", "", "", String(window.withFineValue))
                row(key, number, "with_coarse_value", "", "", String(window.withCoarseValue))
                row(key, number, "without_value", "", "", String(window.withoutValue))
                for (tier, count) in zip(Self.tierNames, window.tiers) {
                    row(key, number, "tier", "", tier, String(count))
                }
                for field in window.fields {
                    for fieldCase in field.cases {
                        row(key, number, "case", field.column, fieldCase.name, String(fieldCase.postbacks))
                    }
                }
                for (coarse, count) in zip(Self.coarseNames, window.coarse) {
                    row(key, number, "coarse", "", coarse, String(count))
                }
            }
            if let cost = group.cost {
                row(key, "", "cost_spend", "", costCurrency ?? "", cost.spend.text)
                row(key, "", "cost_rows", "", "", String(cost.rows))
                row(key, "1", "cost_per_install", "", costCurrency ?? "", cost.perInstall.map { String($0) } ?? "")
            }
            for revenue in group.revenue {
                if let currency = revenue.currency { row(key, "", "revenue_currency", revenue.field, "", currency) }
                let totals = [(revenue.postbacks, revenue.low, revenue.mid, revenue.high, "")]
                let ranges = revenue.ranges.map { ($0.postbacks, $0.low, $0.mid, $0.high, $0.name) }
                for (postbacks, low, mid, high, item) in totals + ranges {
                    // The total of no fine-value postback is unknown: empty, never 0, and a row says why.
                    let known = postbacks > 0 || !item.isEmpty
                    row(key, "", "revenue_postbacks", revenue.field, item, String(postbacks))
                    row(key, "", "revenue_low", revenue.field, item, known ? low.text : "")
                    row(key, "", "revenue_mid", revenue.field, item, known ? mid.text : "")
                    row(key, "", "revenue_high", revenue.field, item, known ? high?.text ?? "" : "")
                    if !known {
                        row(key, "", "revenue_unknown", revenue.field, "", "no postback shows a fine value")
                    }
                }
                if let ratio = group.cost?.returnOnSpend.first(where: { $0.field == revenue.field }) {
                    for (figure, value) in [
                        ("roas_low", ratio.low), ("roas_high", ratio.high), ("roas_estimate", ratio.estimate),
                    ] {
                        row(key, "", figure, revenue.field, "", value.map { String($0) } ?? "")
                    }
                }
                let installs = revenue.installs
                row(key, "1", "installs_low", revenue.field, "", installs.low.text)
                row(key, "1", "installs_high", revenue.field, "", installs.high?.text ?? "")
                if let reengagements = revenue.reengagements {
                    row(key, "1", "reengagements_low", revenue.field, "", reengagements.low.text)
                    row(key, "1", "reengagements_high", revenue.field, "", reengagements.high?.text ?? "")
                }
                // Estimates, not bounds: over every install, then over those without a fine value.
                for (prefix, estimate) in [("installs_estimate", installs.total), ("estimate", installs.estimate)] {
                    guard let estimate else { continue }
                    row(key, "1", prefix + "_installs", revenue.field, "", String(estimate.installs))
                    row(key, "1", prefix + "_mid", revenue.field, "", estimate.mid.text)
                    row(key, "1", prefix + "_low", revenue.field, "", estimate.low.text)
                    row(key, "1", prefix + "_high", revenue.field, "", estimate.high?.text ?? "")
                }
            }
        }
        let none = prefix(keyColumns.map { name in scope.first { $0.name == name }?.text ?? "" })
        if let unmatched = unmatchedCost {
            row(none, "", "cost_unmatched_spend", "", costCurrency ?? "", unmatched.spend.text)
            row(none, "", "cost_unmatched_rows", "", "", String(unmatched.rows))
        }
        for (status, rows) in notOK { row(none, "", "not_ok", "", status.code, String(rows)) }
        return out
    }
}
