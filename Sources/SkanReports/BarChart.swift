import SkanCore

/// A horizontal chart drawn as inline SVG, one row per label: stacked bars (shares or counts) or an interval
/// (low to high, a mark at the mid-point). No script, no external file: the page stays one self-contained file.
struct BarChart {
    /// One row: its label, and segments (value and CSS class) stacked in one bar, thin bars side by side (one
    /// per window, say; nil for one that has nothing to show), or an interval.
    struct Row {
        var label: String
        /// The number written at the end of the bar (a total, a share), if any.
        var valueText: String? = nil
        var segments: [(value: Double, style: String, title: String)] = []
        var parallel: [(value: Double, style: String, title: String)?] = []
        var interval: (low: Double, mid: Double, high: Double?, title: String)? = nil
    }

    var id: String
    var title: String
    var rows: [Row]
    /// The value at the right edge; the largest row's total (or interval end) when nil.
    var scale: Double? = nil
    /// The unit the axis shows (`%`, `USD`), if any.
    var unit: String = ""

    /// Labels get 330 px (two keys, `cstr6suwn9.skadnetwork / 5239`, fit whole); the plot leaves room after the
    /// longest bar for its number.
    static let labelWidth = 330.0, plotWidth = 540.0, valueWidth = 130.0, rowHeight = 22.0, top = 8.0
    static let axisHeight = 24.0

    var svg: String {
        let largest =
            rows.map { row in
                max(
                    row.segments.reduce(0) { $0 + $1.value }, row.interval.map { $0.high ?? $0.mid } ?? 0,
                    row.parallel.compactMap { $0?.value }.max() ?? 0)
            }.max() ?? 0
        let end = scale ?? (largest > 0 ? Self.niceCeiling(largest) : 1)
        let height = Self.top + Double(rows.count) * Self.rowHeight + Self.axisHeight
        let width = Self.labelWidth + Self.plotWidth + Self.valueWidth
        var out =
            "<svg id=\"\(id)\" class=\"chart\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\" "
            + "viewBox=\"0 0 \(Self.format(width)) \(Self.format(height))\" width=\"\(Self.format(width))\" "
            + "height=\"\(Self.format(height))\"><title>\(HTMLText.escaped(title))</title>\n"
        func x(_ value: Double) -> Double { Self.labelWidth + min(max(value / end, 0), 1) * Self.plotWidth }
        for (index, row) in rows.enumerated() {
            let y = Self.top + Double(index) * Self.rowHeight
            // The whole label is the text's tooltip, in case it was shortened.
            out +=
                "<text class=\"label\" x=\"\(Self.format(Self.labelWidth - 8))\" y=\"\(Self.format(y + 15))\" "
                + "text-anchor=\"end\"><title>\(HTMLText.escaped(row.label))</title>"
                + "\(HTMLText.escaped(Self.shortened(row.label)))</text>\n"
            var start = 0.0
            for segment in row.segments where segment.value > 0 {
                out +=
                    "<rect class=\"\(segment.style)\" x=\"\(Self.format(x(start)))\" y=\"\(Self.format(y + 3))\" "
                    + "width=\"\(Self.format(x(start + segment.value) - x(start)))\" height=\"16\">"
                    + "<title>\(HTMLText.escaped(segment.title))</title></rect>\n"
                start += segment.value
            }
            let thickness = 16.0 / Double(max(row.parallel.count, 1))
            for (offset, bar) in row.parallel.enumerated() {
                guard let bar else { continue }
                out +=
                    "<rect class=\"\(bar.style)\" x=\"\(Self.format(x(0)))\" y=\"\(Self.format(y + 3 + Double(offset) * thickness))\" "
                    + "width=\"\(Self.format(max(x(bar.value) - x(0), 1)))\" height=\"\(Self.format(thickness - 1))\">"
                    + "<title>\(HTMLText.escaped(bar.title))</title></rect>\n"
            }
            if let interval = row.interval {
                let right = interval.high.map(x) ?? (Self.labelWidth + Self.plotWidth)
                out +=
                    "<line class=\"interval\(interval.high == nil ? " open" : "")\" x1=\"\(Self.format(x(interval.low)))\" "
                    + "y1=\"\(Self.format(y + 11))\" x2=\"\(Self.format(right))\" y2=\"\(Self.format(y + 11))\">"
                    + "<title>\(HTMLText.escaped(interval.title))</title></line>\n"
                out +=
                    "<circle class=\"mid\" cx=\"\(Self.format(x(interval.mid)))\" cy=\"\(Self.format(y + 11))\" r=\"5\">"
                    + "<title>\(HTMLText.escaped(interval.title))</title></circle>\n"
            }
            if let text = row.valueText {
                // After the bar; side-by-side bars share one text, in the column after the plot.
                let barEnd =
                    row.parallel.isEmpty
                    ? max(x(start), row.interval.map { $0.high.map(x) ?? (Self.labelWidth + Self.plotWidth) } ?? 0)
                    : Self.labelWidth + Self.plotWidth
                out +=
                    "<text class=\"value\" x=\"\(Self.format(barEnd + 6))\" y=\"\(Self.format(y + 15))\">"
                    + "\(HTMLText.escaped(text))</text>\n"
            }
        }
        let axisY = Self.top + Double(rows.count) * Self.rowHeight + 4
        out +=
            "<line class=\"axis\" x1=\"\(Self.format(Self.labelWidth))\" y1=\"\(Self.format(axisY))\" "
            + "x2=\"\(Self.format(Self.labelWidth + Self.plotWidth))\" y2=\"\(Self.format(axisY))\"/>\n"
        for tick in 0...4 {
            let value = end * Double(tick) / 4
            out +=
                "<text class=\"tick\" x=\"\(Self.format(x(value)))\" y=\"\(Self.format(axisY + 16))\" "
                + "text-anchor=\"middle\">\(HTMLText.escaped(Self.tickText(value) + unit))</text>\n"
        }
        return out + "</svg>\n"
    }

    /// The smallest round number (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten) at or above `value`.
    static func niceCeiling(_ value: Double) -> Double {
        var power = 1.0
        while power * 10 <= value { power *= 10 }
        while power > value && power > 1e-6 { power /= 10 }
        for step in [1.0, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10] where step * power >= value { return step * power }
        return value
    }

    static func tickText(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : format(value)
    }

    /// Coordinates with at most two decimals, so the page is the same on every machine.
    static func format(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let whole = hundredths / 100
        let fraction = abs(hundredths % 100)
        let sign = hundredths < 0 && whole == 0 ? "-" : ""
        return fraction == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// Labels beyond 48 characters end in an ellipsis (the full text is the label's tooltip and in the tables).
    static func shortened(_ label: String) -> String {
        label.count <= 48 ? label : String(label.prefix(47)) + "…"
    }
}
