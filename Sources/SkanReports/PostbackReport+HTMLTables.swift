import SkanCore
import SkanPostbacks

extension PostbackReport {
    /// The table of groups (and of cost), as the Markdown report's, in a box that scrolls sideways on a narrow
    /// screen.
    var groupTablesHTML: String {
        var out = "<h2>Groups</h2>\n"
        out += Self.table(
            header: [
                keyHeading, "postbacks", "installs", "contributed", "re-engagements", "with fine value",
                "with coarse value", "without value",
                "revenue (mid, low to high)", "per install", "all installs (hard bounds)",
            ],
            rows: groups.map { group in
                let first = group.windows[0]
                let revenue = group.revenue.first
                return [
                    Self.label(group), String(group.postbacks), String(first.installs), String(first.contributed),
                    String(first.reengagements), Self.percent(first.withFineValue, of: first.won),
                    Self.percent(first.withCoarseValue, of: first.won),
                    Self.percent(first.withoutValue, of: first.won), revenue.map(Self.intervalCell) ?? "–",
                    revenue.map(Self.perInstall) ?? "–", revenue.map(Self.installBounds) ?? "–",
                ]
            }, numeric: [1, 2, 3, 4, 5, 6, 7, 9])
        if let cost = costTable {
            out += "<h2>Cost</h2>\n"
            out += Self.table(header: cost.header, rows: cost.rows, numeric: [1, 2, 3])
            out += "<p class=\"method\">\(HTMLText.escaped(Self.costMethod))</p>\n"
        }
        return out
    }

    /// The rest of the Markdown report's tables: the null rate by window and each group's windows and revenue,
    /// folded (`<details>`), so the page stays short; then the rows not ok, open.
    var detailsHTML: String {
        var out = "<h2>Each group</h2>\n<details>\n<summary>Null rate by window</summary>\n"
        out += Self.table(
            header: [keyHeading, "window 1", "window 2", "window 3"],
            rows: groups.map { group in
                [Self.label(group)]
                    + group.windows.map { "\(Self.percent($0.withoutValue, of: $0.won)) of \($0.won)" }
            }, numeric: [1, 2, 3])
        out += "</details>\n"
        for group in groups {
            out +=
                "<details>\n<summary>\(HTMLText.escaped(Self.label(group))): \(group.postbacks) postbacks</summary>\n"
            for window in group.windows where window.postbacks > 0 {
                out += "<h3>Window \(window.number): \(window.postbacks) postbacks</h3>\n<p>"
                out += HTMLText.escaped(Self.tierAndCoarseSentence(window))
                out += "</p>\n"
                guard window.withFineValue > 0 else { continue }
                out += Self.table(
                    header: ["field", "case", "postbacks", "share of fine values"],
                    rows: window.fields.flatMap { field in
                        field.cases.map {
                            [
                                field.column, $0.name, String($0.postbacks),
                                Self.percent($0.postbacks, of: window.withFineValue),
                            ]
                        }
                    }, numeric: [2, 3])
            }
            for revenue in group.revenue {
                out += "<h3>Revenue (field \(HTMLText.escaped(revenue.field))): "
                out += "\(HTMLText.escaped(Self.interval(revenue)))</h3>\n"
                defer {
                    out += "<p>\(HTMLText.escaped(Self.installSources(revenue)))</p>\n"
                    if let estimate = Self.estimateText(revenue) { out += "<p>\(HTMLText.escaped(estimate))</p>\n" }
                }
                guard revenue.postbacks > 0 else { continue }
                out += Self.table(
                    header: ["case", "range", "postbacks", "low", "mid", "high"],
                    rows: revenue.ranges.map { range in
                        [
                            range.name, range.range, String(range.postbacks),
                            Self.money(range.low, in: revenue.currency, .down),
                            Self.money(range.mid, in: revenue.currency),
                            range.high.map { Self.money($0, in: revenue.currency, .up) } ?? "–",
                        ]
                    }, numeric: [2, 3, 4, 5])
            }
            out += "</details>\n"
        }
        out += "<h2>Rows not ok</h2>\n"
        out +=
            notOK.isEmpty
            ? "<p>Every row was ok.</p>\n"
            : Self.table(
                header: ["status", "rows"], rows: notOK.map { [$0.status.code, String($0.rows)] }, numeric: [1])
        for note in notes { out += "<p>Note: \(HTMLText.escaped(note))</p>\n" }
        return out
    }

    private static func table(header: [String], rows: [[String]], numeric: Set<Int>) -> String {
        var out = "<div class=\"scroll\">\n<table>\n<tr>"
        out += header.map { "<th>\(HTMLText.escaped($0))</th>" }.joined() + "</tr>\n"
        for row in rows {
            out += "<tr>"
            for (index, cell) in row.enumerated() {
                out += numeric.contains(index) ? "<td class=\"number\">" : "<td>"
                out += HTMLText.escaped(cell) + "</td>"
            }
            out += "</tr>\n"
        }
        return out + "</table>\n</div>\n"
    }
}
