import SkanCore
import SkanPostbacks

extension InstallDayCohorts {
    /// What the figures mean, for every format: the bounds first, the allocation labelled as one.
    var method: String {
        let (earliest, latest) = hoursBeforeReceipt
        return "First-launch day of the installs (window-1 postbacks the network won), from the day skanc serve "
            + "received each postback: a first launch lies \(Self.hours(latest)) to \(Self.hours(earliest)) hours "
            + "before its postback arrives (window 1 ends 48 hours after first launch, or when the schema can lock "
            + "it first; Apple sends its postback 24 to 48 hours later). installs_low/high bound each day's "
            + "installs; through_low/high the installs up to and including it (tighter); allocated spreads each "
            + "receipt day's installs over their span by its hours: an estimate, not a bound. Bounds assume "
            + "Apple's documented delays and a receiver that answered the first attempt; the latest "
            + "\(Int((earliest / 24).rounded(.up))) days are incomplete until their postbacks arrive."
    }

    private static func hours(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// The figures of one day as the formats name them, in order.
    static let figureNames = ["installs_low", "installs_high", "through_low", "through_high", "allocated"]

    private static func figures(_ day: Day) -> [String] {
        [day.low, day.high, day.throughLow, day.throughHigh].map(String.init)
            + [String((day.allocated * 100).rounded() / 100)]
    }

    /// The JSON interface: `{"method", "hours_before_receipt": {"earliest", "latest"}, "undated", "cohorts":
    /// [{"by": {...}, "days": [{"day", "installs_low", "installs_high", "through_low", "through_high",
    /// "allocated"}]}]}`.
    public var json: String {
        JSONValue.object([
            ("method", .string(method)),
            (
                "hours_before_receipt",
                .object([
                    ("earliest", .number(hoursBeforeReceipt.earliest)), ("latest", .number(hoursBeforeReceipt.latest)),
                ])
            ),
            ("undated", .integer(undated)),
            (
                "cohorts",
                .array(
                    cohorts.map { cohort in
                        .object([
                            ("by", .object(cohort.by.map { ($0.name, .optional($0.text)) })),
                            (
                                "days",
                                .array(
                                    cohort.days.map { day in
                                        .object([
                                            ("day", .string(day.day)), ("installs_low", .integer(day.low)),
                                            ("installs_high", .integer(day.high)),
                                            ("through_low", .integer(day.throughLow)),
                                            ("through_high", .integer(day.throughHigh)),
                                            ("allocated", .number((day.allocated * 100).rounded() / 100)),
                                        ])
                                    })
                            ),
                        ])
                    })
            ),
        ]).rendered() + "\n"
    }

    /// One row per group and day: the groupings' columns, `install_day`, then the figures.
    public var csv: String {
        let names = cohorts.first?.by.map(\.name) ?? []
        var lines = [(names + ["install_day"] + Self.figureNames).map(CSVField.escaped).joined(separator: ",")]
        for cohort in cohorts {
            let key = cohort.by.map { CSVField.escaped($0.text ?? "") }
            for day in cohort.days {
                lines.append((key + [day.day] + Self.figures(day)).joined(separator: ","))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A table per group, under the method.
    public var markdown: String {
        var out = "# Installs by day of first launch\n\n\(MarkdownText.escaped(method))\n"
        if undated > 0 { out += "\n\(undated) installs have no receipt day (a segment without its .times file).\n" }
        for cohort in cohorts {
            let title = cohort.by.isEmpty ? "All installs" : PostbackReport.label(cohort.by)
            out +=
                "\n## \(MarkdownText.escaped(title))\n\n| day | " + Self.figureNames.joined(separator: " | ")
                + " |\n|---|" + String(repeating: "---:|", count: Self.figureNames.count) + "\n"
            for day in cohort.days {
                out += "| \(day.day) | " + Self.figures(day).joined(separator: " | ") + " |\n"
            }
        }
        return out
    }

    /// The same tables as one self-contained page.
    public var html: String {
        var out = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>Installs by day of first launch</title>
            <style>
            body { font: 14px/1.4 -apple-system, system-ui, sans-serif; margin: 2em auto; max-width: 1200px; padding: 0 1em; }
            table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
            th, td { border: 1px solid #d1d1d6; padding: 4px 8px; }
            td { text-align: right; font-variant-numeric: tabular-nums; }
            th { background: #f2f2f7; }
            </style>
            </head>
            <body>
            <h1>Installs by day of first launch</h1>
            <p>\(HTMLText.escaped(method))</p>

            """
        for cohort in cohorts {
            let title = cohort.by.isEmpty ? "All installs" : PostbackReport.label(cohort.by)
            out +=
                "<h2>\(HTMLText.escaped(title))</h2>\n<table>\n<tr><th>day</th>"
                + Self.figureNames.map { "<th>\($0)</th>" }.joined() + "</tr>\n"
            for day in cohort.days {
                out += "<tr><th>\(day.day)</th>" + Self.figures(day).map { "<td>\($0)</td>" }.joined() + "</tr>\n"
            }
            out += "</table>\n"
        }
        return out + "</body>\n</html>\n"
    }

    /// The cohorts in `format`.
    public func render(_ format: ReportFormat) -> String {
        switch format {
        case .markdown: markdown
        case .html: html
        case .json: json
        case .csv: csv
        }
    }
}
