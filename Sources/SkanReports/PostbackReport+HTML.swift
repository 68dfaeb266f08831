import SkanCore
import SkanPostbacks

extension PostbackReport {
    /// The most groups a chart draws (the largest by postbacks); the tables list every group.
    static let chartedGroups = 40

    /// The report as one self-contained page, the answer first: the totals, the table of groups (and of cost),
    /// then inline SVG charts with their numbers on the bars (window 1's installs by what they carried, the null
    /// rate of each window, the revenue intervals), then each group's windows and ranges folded away, and the
    /// rows not ok. No script, no external file; readable on a laptop screen.
    public var html: String {
        let title = HTMLText.escaped("Postback report: \(self.title)")
        let charted = groups.sorted { $0.postbacks > $1.postbacks }.prefix(Self.chartedGroups)
        let more = groups.count > charted.count ? " (the \(charted.count) largest of \(groups.count))" : ""
        var out = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title)</title>
            <style>
            body { font: 14px/1.4 -apple-system, system-ui, sans-serif; margin: 2em auto; max-width: 1500px; padding: 0 1em; color: #1d1d1f; }
            table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
            th, td { border: 1px solid #d1d1d6; padding: 4px 8px; text-align: left; }
            td.number { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
            th { background: #f2f2f7; }
            .scroll { max-width: 100%; overflow-x: auto; }
            svg.chart { max-width: 100%; height: auto; display: block; margin: 0.5em 0 1.5em; }
            svg .label, svg .tick, svg .value { font-size: 12px; fill: #3a3a3c; }
            svg .value { font-variant-numeric: tabular-nums; }
            .totals { display: flex; flex-wrap: wrap; gap: 0.6em; margin: 0.5em 0 1.5em; }
            .totals div { border: 1px solid #d1d1d6; border-radius: 8px; padding: 0.5em 0.9em; min-width: 9em; }
            .totals b { display: block; font-size: 20px; font-variant-numeric: tabular-nums; }
            details { margin: 0.3em 0; } summary { cursor: pointer; font-weight: 600; }
            svg .fine { fill: #34c759; } svg .coarse { fill: #ffcc00; } svg .none { fill: #c7c7cc; }
            svg .window1 { fill: #007aff; } svg .window2 { fill: #5ac8fa; } svg .window3 { fill: #af52de; }
            svg .interval { stroke: #007aff; stroke-width: 4; } svg .interval.open { stroke-dasharray: 6 4; }
            svg .mid { fill: #ff3b30; } svg .axis { stroke: #8e8e93; }
            .legend span { display: inline-block; margin-right: 1.2em; }
            .swatch { display: inline-block; width: 12px; height: 12px; margin-right: 4px; vertical-align: -1px; }
            p.method { color: #3a3a3c; max-width: 60em; }
            </style>
            </head>
            <body>
            <h1>\(title)</h1>
            <p>\(HTMLText.escaped(overview))</p>

            """
        out += totalsHTML
        out += trendHTML
        out += groupTablesHTML
        out += "<h2>Installs per group, window 1\(HTMLText.escaped(more))</h2>\n"
        out += Self.legend([
            ("#34c759", "with a fine value"), ("#ffcc00", "with a coarse value"), ("#c7c7cc", "without a value"),
        ])
        // Installs only, as the table counts them: a re-engagement's postback is no install.
        out +=
            BarChart(
                id: "chart-postbacks", title: "Installs per group, by what their window-1 postbacks carried",
                rows: charted.map { group in
                    let first = group.windows[0]
                    return Self.valueBars(
                        label: Self.label(group), installs: first.installs, fine: first.installsWithFineValue,
                        coarse: first.installsWithCoarseValue)
                }
            ).svg
        out += "<h2>Null rate per window</h2>\n"
        out += Self.legend([("#007aff", "window 1"), ("#5ac8fa", "window 2"), ("#af52de", "window 3")])
        let nullRows = charted.map { group in
            BarChart.Row(
                label: Self.label(group),
                valueText: group.windows.map { $0.won > 0 ? Self.percent($0.withoutValue, of: $0.won) : "–" }.joined(
                    separator: " · "),
                parallel: group.windows.map { window in
                    guard window.won > 0 else { return nil }
                    let rate = Double(window.withoutValue) / Double(window.won) * 100
                    let share = Self.percent(window.withoutValue, of: window.won)
                    return (
                        rate, "window\(window.number)",
                        "window \(window.number): \(share) of \(window.won) without a value"
                    )
                })
        }
        out +=
            BarChart(
                id: "chart-null-rate", title: "Share of won postbacks without a value, per window", rows: nullRows,
                scale: 100, unit: "%"
            ).svg
        let revenueFields = Set(groups.flatMap { $0.revenue.map(\.field) })
        for field in columns.revenue.map(\.column) where revenueFields.contains(field) {
            let rows = charted.compactMap { group -> BarChart.Row? in
                guard let revenue = group.revenue.first(where: { $0.field == field }), revenue.postbacks > 0 else {
                    return nil
                }
                return BarChart.Row(
                    label: Self.label(group),
                    valueText: Self.money(revenue.mid, in: revenue.currency)
                        + (revenue.currency.map { " \($0)" } ?? ""),
                    interval: (
                        revenue.low.doubleValue, revenue.mid.doubleValue, revenue.high?.doubleValue,
                        Self.interval(revenue)
                    ))
            }
            guard !rows.isEmpty else { continue }
            let currency = groups.lazy.compactMap { $0.revenue.first { $0.field == field }?.currency }.first
            out +=
                "<h2>Revenue (field \(HTMLText.escaped(field)))\(currency.map { " (\(HTMLText.escaped($0)))" } ?? "")</h2>\n"
            out +=
                "<p class=\"legend\"><span>line: low to high (dashed: no upper bound)</span><span>dot: mid-point</span></p>\n"
            out +=
                BarChart(
                    id: "chart-revenue-\(HTMLText.escaped(field))",
                    title: "Revenue interval per group, field \(field)",
                    rows: rows, unit: currency.map { " \($0)" } ?? ""
                ).svg
        }
        out += "<p class=\"method\">\(HTMLText.escaped(Self.revenueMethod))</p>\n"
        out += detailsHTML
        return out + Self.sortScript + "</body>\n</html>\n"
    }

    /// The installs by day received, in date order, by what their postbacks carried; nothing without receipt days.
    private var trendHTML: String {
        guard !trend.isEmpty else { return "" }
        var out = "<h2>Installs by day received</h2>\n"
        out += Self.legend([
            ("#34c759", "with a fine value"), ("#ffcc00", "with a coarse value"), ("#c7c7cc", "without a value"),
        ])
        out +=
            BarChart(
                id: "chart-trend", title: "Installs per day received, by what their postbacks carried",
                rows: trend.map { day in
                    // Installs only: a re-engagement's or a contributing network's postback is no install.
                    let window = day.counts
                    return Self.valueBars(
                        label: day.day, installs: window.installs, fine: window.installFineValues.reduce(0, +),
                        coarse: window.installCoarseValues.reduce(0, +))
                }
            ).svg
        return out + "<p class=\"method\">\(HTMLText.escaped(Self.trendMethod))</p>\n"
    }

    /// A bar of `installs` split by what their postbacks carried: a fine value, a coarse value only, neither.
    private static func valueBars(label: String, installs: Int, fine: Int, coarse: Int) -> BarChart.Row {
        let without = installs - fine - coarse
        return BarChart.Row(
            label: label, valueText: count(installs),
            segments: [
                (Double(fine), "fine", "\(count(fine)) with a fine value"),
                (Double(coarse), "coarse", "\(count(coarse)) with a coarse value"),
                (Double(without), "none", "\(count(without)) without a value"),
            ])
    }

    private static func legend(_ items: [(color: String, text: String)]) -> String {
        "<p class=\"legend\">"
            + items.map {
                "<span><span class=\"swatch\" style=\"background:\($0.color)\"></span>\(HTMLText.escaped($0.text))</span>"
            }.joined() + "</p>\n"
    }
}
