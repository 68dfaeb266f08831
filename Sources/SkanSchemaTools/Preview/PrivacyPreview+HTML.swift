import SkanCompiler
import SkanCore
import SkanSchema

extension PrivacyPreview {
    /// A self-contained page: a grid of windows (columns) by tiers (rows), each cell saying what the postback
    /// carries and coloring each field by how it reads (fine, coarse, not at all).
    public var html: String {
        let title = "\(HTMLText.escaped(schema.name)) version \(schema.version)"
        var out = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>\(title): what each postback shows</title>
            <style>
            body { font: 14px/1.4 -apple-system, system-ui, sans-serif; margin: 2em; color: #1d1d1f; }
            table.grid { border-collapse: collapse; }
            table.grid th, table.grid td { border: 1px solid #c7c7cc; padding: 8px; vertical-align: top; }
            table.grid th { background: #f2f2f7; }
            td.none-sent { background: repeating-linear-gradient(45deg, #fff, #fff 6px, #eee 6px, #eee 12px); color: #8e8e93; }
            .carries { color: #3a3a3c; font-size: 12px; margin-bottom: 6px; }
            .field { display: inline-block; border-radius: 4px; padding: 1px 6px; margin: 2px; }
            .fine { background: #d8f5d0; }
            .coarse { background: #fff4b8; }
            .none { background: #f2f2f7; color: #8e8e93; text-decoration: line-through; }
            .legend span { margin-right: 1em; }
            </style>
            </head>
            <body>
            <h1>\(title): what each postback shows</h1>
            <p class="legend"><span class="field fine">read from the fine value</span><span class="field coarse">read from the coarse value</span><span class="field none">not readable</span></p>
            <table class="grid">
            <tr><th>tier</th>
            """
        for window in ConversionWindow.allCases {
            let hours = window.hours
            out += "<th>window \(window.number) (hours \(hours.lowerBound) to \(hours.upperBound))</th>"
        }
        out += "</tr>\n"
        for tier in PostbackDataTier.allCases {
            out += "<tr><th>tier \(tier.rawValue)</th>"
            for cell in cells where cell.tier == tier {
                guard cell.postback else {
                    out += "<td class=\"none-sent\">no postback</td>"
                    continue
                }
                let digits = cell.sourceIdentifierDigits.map(Self.digits) ?? ""
                out +=
                    "<td><div class=\"carries\">"
                    + HTMLText.escaped(cell.carries.map(\.rawValue).joined(separator: ", "))
                    + " (\(digits)-digit source)</div>"
                for field in cell.fields {
                    out += "<span class=\"field \(field.reading.rawValue)\">\(HTMLText.escaped(field.name))</span>"
                }
                if let states = cell.coarseStates, !cell.carries.contains(.fineValue) {
                    out +=
                        "<div class=\"carries\">"
                        + states.map { "\($0.value.rawValue): \($0.states) states" }.joined(separator: ", ") + "</div>"
                }
                out += "</td>"
            }
            out += "</tr>\n"
        }
        out += "</table>\n</body>\n</html>\n"
        return out
    }
}
