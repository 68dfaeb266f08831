import SkanCore
import SkanReports

/// The hard bounds over all of a group's installs, as `skanc report` gives them under `installs`: each window-1
/// postback the network won but re-engagements (conversions, counted apart) counts at its fine value's range, at
/// the bound its coarse value stands for under the schema's coarse rules (`ReportColumns.coarseBounds`), or, with
/// neither, at least 0 and no upper bound. Read from `report_counts`, window 1 and `attribution = 'install'` only.
/// `report_installs` has a row per group and revenue field; `report_installs_coarse` one per group, field and
/// coarse value that occurs. `report_reengagements` and `report_reengagements_coarse` are the same over the
/// re-engagements (conversions, not installs), as the JSON report's `reengagements`. The estimates stay the CLI's
/// (a model over the fine-value postbacks' states, not a sum a view can keep).
extension ReportSQL {
    /// Whose window-1 postbacks a bounds view sums: the installs or, apart, the re-engagements.
    enum Bounded: String, CaseIterable {
        case installs, reengagements

        /// The rows' `attribution` in `report_rows`.
        var attribution: String { self == .installs ? "install" : "reengagement" }
        /// The view of the bounds per group and field.
        var view: String { "report_\(rawValue)" }
        /// The view of what each coarse value stands for.
        var coarseView: String { "report_\(rawValue)_coarse" }
    }

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

    /// The rows of window 1 a group's left join takes for `bounded`.
    private static func rows(_ bounded: Bounded) -> [String] {
        ["r.window_number = 1", "r.attribution = '\(bounded.attribution)'"]
    }

    /// Per group, revenue field and window-1 coarse value that occurs among `bounded`: the postbacks and what
    /// each stands for.
    func coarseBoundsView(_ bounded: Bounded) -> String {
        let bounds = coarseBoundRows
        guard !bounds.isEmpty else { return emptyView([("field", text), ("coarse", text)] + counts(["postbacks"])) }
        let postbacks = "COALESCE(SUM(r.n), 0)"
        return perGroup(
            [
                "b.field", "b.coarse", "\(postbacks) AS postbacks", "b.low_bound AS low_units",
                "b.high_bound AS high_units", "CAST(b.low_bound AS \(double)) / \(power) AS low",
                "CAST(b.high_bound AS \(double)) / \(power) AS high",
            ], crossing: ["(" + bounds.joined(separator: " UNION ALL ") + ") AS b"],
            on: Self.rows(bounded) + ["r.coarse = b.coarse"],
            groupBy: ["b.field", "b.coarse", "b.low_bound", "b.high_bound"])
            + "\nHAVING \(postbacks) > 0"
    }

    /// `CASE` over a row's field and range: the range's bound (`low` or `high`) in units; NULL for a fine value
    /// in no range of the field (a version without it) or an open upper bound.
    private func rangeBound(_ high: Bool) -> String {
        let fields = columns.revenue.map { field in
            let ranges = field.ranges.enumerated().map { index, range in
                let bound = high ? range.high.map { String($0.units) } ?? "NULL" : String(range.low.units)
                return "WHEN \(index) THEN CAST(\(bound) AS \(dialect.integerType))"
            }
            return "WHEN \(dialect.literal(field.column)) THEN CASE r.\(dialect.identifier("range_" + field.column)) "
                + ranges.joined(separator: " ") + " END"
        }
        return "CASE f.field " + fields.joined(separator: " ") + " END"
    }

    /// Per group and revenue field: window 1's `bounded`, those with a fine value and with neither value, and the
    /// bounds over all of them (`high` NULL when one is unbounded).
    func boundsView(_ bounded: Bounded) -> String {
        guard !columns.revenue.isEmpty else {
            return emptyView(
                [("field", text), ("currency", text)] + counts(["postbacks", "with_fine_value", "without_value"]))
        }
        let id = dialect.identifier
        let keys = keyColumns.map(id)
        let fields = columns.revenue.map { field in
            "SELECT \(dialect.literal(field.column)) AS field, "
                + "\(field.currency.map(dialect.literal) ?? "CAST(NULL AS \(text))") AS currency"
        }
        let (low, high) = (rangeBound(false), rangeBound(true))
        let fine = "r.fine IS NOT NULL"
        // The fine-value installs' share, per group and field: a fine value in no range counts at 0, unbounded.
        let installs = perGroup(
            [
                "f.field", "f.currency", "COALESCE(SUM(r.n), 0) AS postbacks",
                "COALESCE(SUM(CASE WHEN \(fine) THEN r.n ELSE 0 END), 0) AS with_fine_value",
                "COALESCE(SUM(CASE WHEN r.fine IS NULL AND r.coarse IS NULL THEN r.n ELSE 0 END), 0) AS without_value",
                "COALESCE(SUM(CASE WHEN \(fine) THEN r.n * COALESCE(\(low), 0) ELSE 0 END), 0) AS fine_low",
                "COALESCE(SUM(CASE WHEN \(fine) AND \(high) IS NULL THEN r.n ELSE 0 END), 0) AS fine_unbounded",
                "COALESCE(SUM(CASE WHEN \(fine) THEN r.n * COALESCE(\(high), 0) ELSE 0 END), 0) AS fine_high",
            ], crossing: ["(" + fields.joined(separator: " UNION ALL ") + ") AS f"], on: Self.rows(bounded),
            groupBy: ["f.field", "f.currency"])
        let on = keyColumns.map { nullSafeEqual("v.\(id($0))", "k.\(id($0))") }.joined(separator: " AND ")
        // The coarse-only installs' share, per group and field.
        let coarse = """
            SELECT \(keys.map { "c.\($0)" }.joined(separator: ", ")), c.field,
              SUM(c.postbacks * c.low_units) AS low_units,
              SUM(CASE WHEN c.high_units IS NULL THEN 1 ELSE 0 END) AS unbounded,
              SUM(c.postbacks * COALESCE(c.high_units, 0)) AS high_units
            FROM \(bounded.coarseView) AS c
            GROUP BY \((keys.map { "c.\($0)" } + ["c.field"]).joined(separator: ", "))
            """
        let unbounded = "v.without_value > 0 OR v.fine_unbounded > 0 OR COALESCE(k.unbounded, 0) > 0"
        let lowUnits = "v.fine_low + COALESCE(k.low_units, 0)"
        let highUnits = "CASE WHEN \(unbounded) THEN NULL ELSE v.fine_high + COALESCE(k.high_units, 0) END"
        return "SELECT " + keys.map { "v.\($0)" }.joined(separator: ", ")
            + ", v.field, v.currency, v.postbacks, v.with_fine_value, v.without_value"
            + ", \(lowUnits) AS low_units, \(highUnits) AS high_units"
            + ", CAST(\(lowUnits) AS \(double)) / \(power) AS low"
            + ", CAST(\(highUnits) AS \(double)) / \(power) AS high"
            + "\nFROM (\n\(installs)\n) AS v"
            + "\nLEFT JOIN (\n\(coarse)\n) AS k ON \(on) AND k.field = v.field"
    }

    /// `names` as integer columns, then the bounds' columns: what both install views end with.
    private func counts(_ names: [String]) -> [(name: String, type: String)] {
        (names + ["low_units", "high_units"]).map { ($0, dialect.integerType) } + [("low", double), ("high", double)]
    }
}
