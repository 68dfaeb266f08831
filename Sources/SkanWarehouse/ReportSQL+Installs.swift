import SkanCore
import SkanReports

/// The hard bounds over all of a group's installs, as `skanc report` gives them under `installs`: each window-1
/// postback the network won counts at its fine value's range, at the bound its coarse value stands for under the
/// schema's coarse rules (`ReportColumns.coarseBounds`), or, with neither, at least 0 and no upper bound.
/// `report_installs` has a row per group and revenue field; `report_installs_coarse` one per group, field and
/// coarse value that occurs. The estimate for installs without a fine value stays the CLI's (a model over the
/// fine-value postbacks' states, not a sum a view can keep).
extension ReportSQL {
    /// Each revenue field's bound per coarse value, as exact units of 10^-scale (NULL high: none).
    private var coarseBoundRows: [String] {
        let big = dialect.integerType
        return columns.revenue.flatMap { field in
            zip(CoarseValue.allCases, field.coarseBounds).map { coarse, bound in
                "SELECT \(dialect.literal(field.column)) AS field, \(dialect.literal(coarse.rawValue)) AS coarse, "
                    + "CAST(\(bound.low.units) AS \(big)) AS low_bound, "
                    + "CAST(\(bound.high.map { String($0.units) } ?? "NULL") AS \(big)) AS high_bound"
            }
        }
    }

    /// Per group, revenue field and window-1 coarse value that occurs: the postbacks and what each stands for.
    func installsCoarseView() -> String {
        let keys = keyColumns.map { "c.\(dialect.identifier($0))" }
        let bounds = coarseBoundRows
        guard !bounds.isEmpty else { return emptyView([("field", text), ("coarse", text)] + counts(["postbacks"])) }
        return "SELECT " + (keys + ["b.field", "b.coarse", "c.postbacks"]).joined(separator: ", ")
            + ", b.low_bound AS low_units, b.high_bound AS high_units"
            + ", CAST(b.low_bound AS \(double)) / \(power) AS low"
            + ", CAST(b.high_bound AS \(double)) / \(power) AS high"
            + "\nFROM report_coarse AS c\nJOIN (" + bounds.joined(separator: " UNION ALL ") + ") AS b"
            + " ON b.coarse = c.coarse\nWHERE c.window_number = 1 AND c.postbacks > 0"
    }

    /// Per group and revenue field: window 1's won postbacks, those with a fine value and with neither value,
    /// and the bounds over all of them (`high` NULL when one is unbounded).
    func installsView() -> String {
        guard !columns.revenue.isEmpty else {
            return emptyView(
                [("field", text), ("currency", text)] + counts(["postbacks", "with_fine_value", "without_value"]))
        }
        let id = dialect.identifier
        let keys = keyColumns.map(id)
        let on = { (table: String) in
            keyColumns.map { nullSafeEqual("v.\(id($0))", "\(table).\(id($0))") }.joined(separator: " AND ")
        }
        // The coarse-only postbacks' share of the bounds, per group and field.
        let coarse = """
            SELECT \(keys.map { "k.\($0)" }.joined(separator: ", ")), k.field,
              SUM(k.postbacks * k.low_units) AS low_units,
              SUM(CASE WHEN k.high_units IS NULL THEN 1 ELSE 0 END) AS unbounded,
              SUM(k.postbacks * COALESCE(k.high_units, 0)) AS high_units
            FROM report_installs_coarse AS k
            GROUP BY \((keys.map { "k.\($0)" } + ["k.field"]).joined(separator: ", "))
            """
        // A fine value in no range of the field (a version without it) counts at 0 and unbounded, as no value.
        let unbounded =
            "w.without_value > 0 OR w.with_fine_value > v.postbacks OR (v.postbacks > 0 AND v.high_units IS NULL)"
            + " OR COALESCE(k.unbounded, 0) > 0"
        let low = "v.low_units + COALESCE(k.low_units, 0)"
        let high = "CASE WHEN \(unbounded) THEN NULL ELSE COALESCE(v.high_units, 0) + COALESCE(k.high_units, 0) END"
        return "SELECT " + keys.map { "v.\($0)" }.joined(separator: ", ")
            + ", v.field, v.currency, w.postbacks - w.contributed AS postbacks, w.with_fine_value, w.without_value"
            + ", \(low) AS low_units, \(high) AS high_units"
            + ", CAST(\(low) AS \(double)) / \(power) AS low"
            + ", CAST(\(high) AS \(double)) / \(power) AS high"
            + "\nFROM report_revenue AS v\nJOIN report_windows AS w ON \(on("w")) AND w.window_number = 1"
            + "\nLEFT JOIN (\n\(coarse)\n) AS k ON \(on("k")) AND k.field = v.field"
    }

    /// `names` as integer columns, then the bounds' columns: what both install views end with.
    private func counts(_ names: [String]) -> [(name: String, type: String)] {
        (names + ["low_units", "high_units"]).map { ($0, dialect.integerType) } + [("low", double), ("high", double)]
    }
}
