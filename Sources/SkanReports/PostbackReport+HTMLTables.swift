import SkanCore
import SkanPostbacks

extension PostbackReport {
    /// The campaigns' table, the page's answer: one row per group with what a lead acts on (installs, the null
    /// rate, revenue over every install as the estimate and the hard bounds, and with a cost file spend, cost per
    /// install and return on ad spend), counts with thousands separated; sortable by any column (each cell keeps
    /// its number in `data-sort`), largest installs first.
    var groupTablesHTML: String {
        var out = "<h2>Groups</h2>\n"
        let field = columns.revenue.first?.column
        var header = [keyHeading, "installs", "null rate, window 1"]
        if let field { header += ["revenue, \(field) (estimate)", "revenue, \(field) (hard bounds)"] }
        if let currency = costCurrency {
            header += ["spend (\(currency))", "per install (\(currency))"]
            if let field { header.append("return on ad spend, \(field) (bounds; estimate)") }
        }
        header += ["postbacks", "contributed", "re-engagements"]
        let rows = groups.sorted { $0.windows[0].installs > $1.windows[0].installs }.map { group -> [SortableCell] in
            let first = group.windows[0]
            let revenue = field.flatMap { field in group.revenue.first { $0.field == field } }
            var cells: [SortableCell] = [
                SortableCell(text: Self.label(group)),
                SortableCell(number: first.installs),
                SortableCell(
                    text: Self.percent(first.withoutValue, of: first.won),
                    sort: first.won > 0 ? Double(first.withoutValue) / Double(first.won) : nil),
            ]
            if field != nil {
                let total = revenue?.installs.total
                cells.append(
                    SortableCell(
                        text: revenue.flatMap { Self.estimateCell($0) } ?? "–", sort: total?.mid.doubleValue))
                cells.append(
                    SortableCell(
                        text: revenue.map(Self.installBounds) ?? "–", sort: revenue?.installs.low.doubleValue))
            }
            if let currency = costCurrency {
                let cost = group.cost
                let decimals = CurrencyMinorUnits.digits(of: currency) ?? 2
                cells.append(
                    SortableCell(
                        text: cost.map { Self.money($0.spend, in: currency) } ?? "–", sort: cost?.spend.doubleValue))
                cells.append(
                    SortableCell(
                        text: cost?.perInstall.map { Self.money($0, scale: decimals) } ?? "–", sort: cost?.perInstall))
                if let field {
                    let ratio = cost?.returnOnSpend.first { $0.field == field }
                    cells.append(SortableCell(text: ratio.map(Self.returnCell) ?? "–", sort: ratio?.low))
                }
            }
            cells += [
                SortableCell(number: group.postbacks), SortableCell(number: first.contributed),
                SortableCell(number: first.reengagements),
            ]
            return cells
        }
        out += Self.sortableTable(header: header, rows: rows)
        if let cost = costTable {
            out += "<details>\n<summary>Cost per group</summary>\n"
            out += Self.table(header: cost.header, rows: cost.rows, numeric: [1, 2, 3])
            out += "<p class=\"method\">\(HTMLText.escaped(Self.costMethod))</p>\n</details>\n"
        }
        return out
    }

    /// `1,234.56 USD (1,000.00 to 1,500.00)`: the estimate over every install with its interval; nil without one.
    static func estimateCell(_ revenue: Revenue) -> String? {
        guard let total = revenue.installs.total else { return nil }
        let high = total.high.map { money($0, in: revenue.currency, .up) } ?? "no upper end"
        return "\(money(total.mid, in: revenue.currency))\(revenue.currency.map { " \($0)" } ?? "") "
            + "(\(money(total.low, in: revenue.currency, .down)) to \(high))"
    }

    /// `20.0% to 45.1%; estimate 30.2%`.
    static func returnCell(_ ratio: ReturnOnSpend) -> String {
        guard let low = ratio.low else { return "–" }
        let bounds = ratio.high.map { "\(Self.ratio(low)) to \(Self.ratio($0))" } ?? "at least \(Self.ratio(low))"
        return bounds + (ratio.estimate.map { "; estimate \(Self.ratio($0))" } ?? "")
    }

    /// A cell of a sortable table: its text, and the number it sorts by (none: it sorts by its text).
    struct SortableCell {
        var text: String
        var sort: Double? = nil

        init(text: String, sort: Double? = nil) {
            self.text = text
            self.sort = sort
        }

        init(number: Int) {
            self.init(text: PostbackReport.count(number), sort: Double(number))
        }
    }

    /// A table whose header sorts its rows (the page's one script, `sortScript`).
    static func sortableTable(header: [String], rows: [[SortableCell]]) -> String {
        var out = "<div class=\"scroll\">\n<table class=\"sortable\">\n<tr>"
        out += header.map { "<th title=\"sort\">\(HTMLText.escaped($0))</th>" }.joined() + "</tr>\n"
        for row in rows {
            out += "<tr>"
            for cell in row {
                if let sort = cell.sort, sort.isFinite {
                    out += "<td class=\"number\" data-sort=\"\(sort)\">"
                } else {
                    out += "<td>"
                }
                out += HTMLText.escaped(cell.text) + "</td>"
            }
            out += "</tr>\n"
        }
        return out + "</table>\n</div>\n"
    }

    /// Sorts a `sortable` table by the column whose header is clicked, numbers by `data-sort`, again to reverse.
    static let sortScript = """
        <script>
        document.querySelectorAll("table.sortable").forEach(function (table) {
          var headers = table.querySelectorAll("tr:first-child th");
          headers.forEach(function (header, column) {
            header.style.cursor = "pointer";
            header.addEventListener("click", function () {
              var descending = header.dataset.order !== "descending";
              header.dataset.order = descending ? "descending" : "ascending";
              var rows = Array.prototype.slice.call(table.querySelectorAll("tr")).slice(1);
              function key(row) {
                var cell = row.children[column];
                return cell.dataset.sort !== undefined ? Number(cell.dataset.sort) : cell.textContent;
              }
              rows.sort(function (a, b) {
                var x = key(a), y = key(b);
                return (x < y ? -1 : x > y ? 1 : 0) * (descending ? -1 : 1);
              });
              rows.forEach(function (row) { row.parentNode.appendChild(row); });
            });
          });
        });
        </script>

        """

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

    static func table(header: [String], rows: [[String]], numeric: Set<Int>) -> String {
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
