import SkanCore
import SkanPostbacks

extension PostbackReport {
    /// The report as Markdown: the overview, one table of groups, the null rate per window, each group's
    /// windows (tiers, cases, coarse values) and revenue ranges, and the rows that were not `ok`.
    public var markdown: String {
        var out = "# Postback report: \(Self.cell(title))\n\n\(Self.cell(overview))\n\n"
        out += "## Groups\n\n"
        out +=
            "| \(Self.cell(keyHeading)) | postbacks | installs | contributed | re-engagements | with fine value |"
        out +=
            " with coarse value | without value | revenue (mid, low to high) | per install | all installs (hard bounds) |\n"
        out += "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---|\n"
        for group in groups {
            let first = group.windows[0]
            let revenue = group.revenue.first
            out += "| \(Self.cell(Self.label(group))) | \(group.postbacks) | \(first.installs) | "
            out += "\(first.contributed) | \(first.reengagements) | "
            out += "\(Self.percent(first.withFineValue, of: first.won)) | "
            out += "\(Self.percent(first.withCoarseValue, of: first.won)) | "
            out += "\(Self.percent(first.withoutValue, of: first.won)) | "
            out +=
                "\(revenue.map { Self.cell(Self.intervalCell($0)) } ?? "–") | \(revenue.map(Self.perInstall) ?? "–") | "
            out += "\(revenue.map { Self.cell(Self.installBounds($0)) } ?? "–") |\n"
        }
        out += "\n\(Self.countsMethod) \(Self.revenueMethod)\n\n"
        if !trend.isEmpty {
            out += "## By day received\n\n| day | installs | with fine value | with coarse value | without value |\n"
            out += "|---|---:|---:|---:|---:|\n"
            for day in trend {
                let counts = day.counts
                let won = counts.postbacks - counts.contributed
                out += "| \(day.day) | \(Self.count(counts.installs)) | "
                out += "\(Self.percent(counts.withFineValue, of: won)) | "
                out += "\(Self.percent(counts.withCoarseValue, of: won)) | "
                out += "\(Self.percent(counts.withoutValue, of: won)) |\n"
            }
            out += "\n\(Self.trendMethod)\n\n"
        }
        if let cost = costTable {
            out += "## Cost\n\n| " + cost.header.map(Self.cell).joined(separator: " | ") + " |\n|---|"
            out += String(repeating: "---:|", count: 3) + String(repeating: "---|", count: cost.header.count - 4) + "\n"
            for row in cost.rows { out += "| " + row.map(Self.cell).joined(separator: " | ") + " |\n" }
            out += "\n\(Self.costMethod)\n\n"
        }
        out +=
            "## Null rate by window\n\nPostbacks without a fine or a coarse value, of the window's won postbacks.\n\n"
        out += "| \(Self.cell(keyHeading)) | window 1 | window 2 | window 3 |\n|---|---:|---:|---:|\n"
        for group in groups {
            let cells = group.windows.map { "\(Self.percent($0.withoutValue, of: $0.won)) of \($0.won)" }
            out += "| \(Self.cell(Self.label(group))) | " + cells.joined(separator: " | ") + " |\n"
        }
        for group in groups {
            out += "\n## \(Self.cell(Self.label(group)))\n"
            for window in group.windows where window.postbacks > 0 {
                out += "\n### Window \(window.number): \(window.postbacks) postbacks\n\n"
                out += Self.tierAndCoarseSentence(window) + "\n"
                guard window.withFineValue > 0 else { continue }
                out += "\n| field | case | postbacks | share of fine values |\n|---|---|---:|---:|\n"
                for field in window.fields {
                    for fieldCase in field.cases {
                        out += "| \(Self.cell(field.column)) | \(Self.cell(fieldCase.name)) | \(fieldCase.postbacks) | "
                        out += "\(Self.percent(fieldCase.postbacks, of: window.withFineValue)) |\n"
                    }
                }
            }
            for revenue in group.revenue {
                out += "\n### Revenue (field \(Self.cell(revenue.field))): \(Self.cell(Self.interval(revenue)))\n\n"
                if revenue.postbacks > 0 {
                    out += "| case | range | postbacks | low | mid | high |\n|---|---|---:|---:|---:|---:|\n"
                    for range in revenue.ranges {
                        out += "| \(Self.cell(range.name)) | \(Self.cell(range.range)) | \(range.postbacks) | "
                        let currency = revenue.currency
                        out +=
                            "\(Self.money(range.low, in: currency, .down)) | \(Self.money(range.mid, in: currency)) | "
                        out += "\(range.high.map { Self.money($0, in: currency, .up) } ?? "–") |\n"
                    }
                    out += "\n"
                }
                out += Self.cell(Self.installSources(revenue)) + "\n"
                if let estimate = Self.estimateText(revenue) { out += "\n" + Self.cell(estimate) + "\n" }
            }
        }
        out += "\n## Rows not ok\n\n"
        if notOK.isEmpty {
            out += "Every row was ok.\n"
        } else {
            out += "| status | rows |\n|---|---:|\n"
            for (status, rows) in notOK { out += "| \(status.code) | \(rows) |\n" }
        }
        for note in notes { out += "\nNote: \(Self.cell(note))\n" }
        return out
    }

    /// Text for a Markdown table cell, through the one escaper.
    static func cell(_ text: String) -> String {
        MarkdownText.escaped(text)
    }
}
