import SkanPostbacks
import SkanReports

/// `report_install_days` (when the report groups by `day`, the receipt day): per group of the other groupings and
/// day an install can have first launched on, the hard intervals of `skanc report --by G,install_day`
/// (`InstallDayCohorts`, whose `ReceiptSpan` both follow): `installs_low`, `installs_high`, `through_low`,
/// `through_high`, and `allocated` (an estimate, not a bound). Read from window 1's installs in `report_windows`;
/// days no install can lie on (between far-apart receipt days) are left out, and installs without a receipt day
/// are in no cohort.
extension ReportSQL {
    /// The view's name; created only when the report groups by `day`.
    static let installDaysViewName = "report_install_days"

    func installDaysView() -> String {
        let id = dialect.identifier
        let keys = keyColumns.filter { $0 != PostbackGrouping.day.rawValue }.map(id)
        let span = InstallDayCohorts.ReceiptSpan(
            hoursBeforeReceipt: InstallDayCohorts.hoursBeforeReceipt(versions))
        let dated =
            "FROM report_windows WHERE window_number = 1 AND installs > 0 AND \(id("day")) IS NOT NULL"
        // The days some install can lie on: each receipt day shifted by each offset of the span.
        let days = (span.first...span.last).map { offset in
            "SELECT DISTINCT "
                + (keys + [dialect.adding(days: offset, to: id("day")) + " AS install_day"])
                .joined(separator: ", ") + " \(dated)"
        }
        let received = "SELECT " + (keys + [id("day"), "installs"]).joined(separator: ", ") + " \(dated)"
        let shifted = { (offset: Int) in dialect.adding(days: offset, to: "r.\(id("day"))") }
        let (from, to) = (shifted(span.first), shifted(span.last))
        func sum(_ condition: String) -> String { "SUM(CASE WHEN \(condition) THEN r.installs ELSE 0 END)" }
        let allocation = (span.first...span.last).map { offset in
            "WHEN \(shifted(offset)) = d.install_day THEN r.installs * \(span.share(offset))"
        }
        let select =
            keys.map { "d.\($0)" } + [
                "d.install_day",
                (span.first == span.last ? sum("\(from) = d.install_day") : "SUM(0)") + " AS installs_low",
                sum("\(from) <= d.install_day AND d.install_day <= \(to)") + " AS installs_high",
                sum("\(to) <= d.install_day") + " AS through_low",
                sum("\(from) <= d.install_day") + " AS through_high",
                "SUM(CASE \(allocation.joined(separator: " ")) ELSE 0 END) AS allocated",
            ]
        let on = keys.map { nullSafeEqual("r.\($0)", "d.\($0)") }
        return "SELECT " + select.joined(separator: ", ")
            + "\nFROM (\n" + days.joined(separator: "\nUNION\n") + "\n) AS d"
            + "\nJOIN (\n\(received)\n) AS r ON " + (on.isEmpty ? "1 = 1" : on.joined(separator: " AND "))
            + "\nWHERE d.install_day IS NOT NULL"
            + "\nGROUP BY " + (keys.map { "d.\($0)" } + ["d.install_day"]).joined(separator: ", ")
    }
}
