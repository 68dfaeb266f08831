import SkanCore
import SkanPostbacks

extension PostbackReport {
    /// One column of the wide CSV: its name, its BigQuery type, and its cell for a group (empty: unknown).
    struct WideColumn {
        /// BigQuery's standard types, the ones the wide CSV uses.
        enum Kind: String {
            case string = "STRING"
            case integer = "INTEGER"
            case float = "FLOAT"
            case numeric = "NUMERIC"
        }

        var name: String
        var kind: Kind
        var description: String
        var cell: (Group) -> String?
    }

    /// The wide CSV's columns, declared once: the CSV's header and cells and the BigQuery schema derive from them.
    /// The key columns, then per group: installs, contributions, re-engagements and window 1's value shares' counts;
    /// per revenue field the installs' hard bounds and estimate (exact decimals); with a cost file, spend, cost per
    /// install and per revenue field the return on ad spend's bounds and estimate (ratios).
    var wideColumns: [WideColumn] {
        var columns: [WideColumn] = csvColumns.dropLast(5).map { name in
            WideColumn(name: name, kind: .string, description: "The group's \(name).") { group in
                group.by.first { $0.name == name }?.text
            }
        }
        if named {
            columns.append(
                WideColumn(name: "name", kind: .string, description: "The campaign's name, from the names file.") {
                    $0.name
                })
        }
        func count(_ name: String, _ description: String, _ value: @escaping (Window) -> Int) {
            columns.append(
                WideColumn(name: name, kind: .integer, description: description) { String(value($0.windows[0])) })
        }
        count("installs", "Installs the network won (window-1 postbacks but contributions and re-engagements).") {
            $0.installs
        }
        count("contributed", "Contributing networks' window-1 postbacks.") { $0.contributed }
        count("reengagements", "Re-engagements the network won: conversions, not installs.") { $0.reengagements }
        count("with_fine_value", "Won window-1 postbacks with a fine value.") { $0.withFineValue }
        count("with_coarse_value", "Won window-1 postbacks with a coarse value only.") { $0.withCoarseValue }
        count("without_value", "Won window-1 postbacks with neither (the null rate's count).") { $0.withoutValue }
        for field in self.columns.revenue.map(\.column) {
            func revenue(_ group: Group) -> Revenue? { group.revenue.first { $0.field == field } }
            func amount(_ suffix: String, _ description: String, _ value: @escaping (InstallRevenue) -> DecimalAmount?)
            {
                columns.append(
                    WideColumn(name: "\(field)_\(suffix)", kind: .numeric, description: description) { group in
                        revenue(group).flatMap { value($0.installs) }?.text
                    })
            }
            amount("low", "\(field) of all installs: the least it can be (a hard bound).") { $0.low }
            amount("high", "\(field) of all installs: the most it can be; empty when unbounded.") { $0.high }
            amount("estimate", "\(field) of all installs: an estimate, not a bound; empty when none.") {
                $0.estimatedTotal
            }
        }
        guard let currency = costCurrency else { return columns }
        columns.append(
            WideColumn(name: "spend", kind: .numeric, description: "Spend from the cost file, in \(currency).") {
                $0.cost?.spend.text
            })
        columns.append(
            WideColumn(name: "cost_per_install", kind: .float, description: "Spend over installs, in \(currency).") {
                $0.cost?.perInstall.map { String($0) }
            })
        for field in self.columns.revenue.map(\.column) {
            func ratio(_ suffix: String, _ description: String, _ value: @escaping (ReturnOnSpend) -> Double?) {
                columns.append(
                    WideColumn(name: "\(field)_roas_\(suffix)", kind: .float, description: description) { group in
                        group.cost?.returnOnSpend.first { $0.field == field }.flatMap(value).map { String($0) }
                    })
            }
            ratio("low", "Return on ad spend of \(field) over all installs: its lower bound.") { $0.low }
            ratio("high", "Return on ad spend of \(field): its upper bound; empty when unbounded.") { $0.high }
            ratio("estimate", "Return on ad spend of \(field): an estimate, not a bound.") { $0.estimate }
        }
        return columns
    }

    /// The report as one row per group and one column per figure (RFC 4180, CRLF; an unknown figure is empty),
    /// for Excel, Looker Studio and `bq load` (with `wideBigQuerySchema`).
    public var wideCSVBytes: [UInt8] {
        let columns = wideColumns
        var out = Array((columns.map { CSVField.escaped($0.name) }.joined(separator: ",") + "\r\n").utf8)
        for group in groups {
            out += Array(columns.map { CSVField.escaped($0.cell(group) ?? "") }.joined(separator: ",").utf8)
            out += [0x0D, 0x0A]
        }
        return out
    }

    /// BigQuery's JSON schema of the wide CSV (`bq load --skip_leading_rows=1 TABLE report.csv schema.json`).
    public var wideBigQuerySchema: String {
        let fields = wideColumns.map { column in
            JSONValue.object([
                ("name", .string(column.name)), ("type", .string(column.kind.rawValue)), ("mode", .string("NULLABLE")),
                ("description", .string(column.description)),
            ])
        }
        return JSONValue.array(fields).rendered() + "\n"
    }
}
