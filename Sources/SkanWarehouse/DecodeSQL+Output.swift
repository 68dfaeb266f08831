import SkanCore
import SkanPostbacks
import SkanSchema

extension DecodeSQL {
    /// The fine decoding table: for each app (in the catalog's order), a row for each fine value 0...63 with
    /// whether it is a state of one of its versions (`fine_valid`), of several (`fine_ambiguous`), and its field
    /// cases as `f_<column>` (NULL in a column of another app's fields); each cell an SQL literal.
    func fineTable() -> (columns: [String], rows: [[String]]) {
        let null = "CAST(NULL AS \(dialect.textType))"
        let fieldColumns = catalog.fieldColumns.map(\.name)
        let columns =
            ["fine_valid", "fine_ambiguous"] + (catalog.saysVersion ? ["f_schema_version"] : [])
            + fieldColumns.map { "f_\($0)" }
        let rows = catalog.apps.flatMap { app in
            let own = app.versions.fieldColumns.map(\.name)
            return Schema.fineValueRange.map { value -> [String] in
                let decoded = app.versions.fieldCases(fine: value)
                let ambiguous = if case .ambiguous = app.versions.owner(of: value) { "1" } else { "0" }
                var row = [decoded == nil ? "0" : "1", ambiguous]
                if catalog.saysVersion {
                    row.append(decoded.map { "\($0.version)" } ?? "CAST(NULL AS \(dialect.integerType))")
                }
                row += fieldColumns.map { name in
                    own.firstIndex(of: name).flatMap { decoded?.cases[$0] }.map(dialect.literal) ?? null
                }
                return row
            }
        }
        return (columns, rows)
    }

    /// The meaning of each coarse value in each window, per app in the catalog's order: window 1 low, medium,
    /// high, window 2...
    func coarseMeanings() -> [String] {
        catalog.apps.flatMap { app in
            ConversionWindow.allCases.flatMap { window in
                CoarseValue.allCases.map { dialect.literal(app.versions.coarseMeaning($0, window: window)) }
            }
        }
    }

    /// The app's position in the catalog from the row's `app_n` (the ID as `JSONInteger` reads it), NULL for an
    /// app it does not hold; 0 when postbacks are not routed by app. `row` qualifies the column (`n.`).
    func appSlot(_ row: String = "") -> String {
        guard catalog.routesByApp else { return "0" }
        return "CASE \(row)app_n "
            + catalog.apps.enumerated().map { "WHEN \($1.appID!) THEN \($0) " }.joined() + "END"
    }

    /// The decoding tables written into the query, `skanc_fine` (by `fine_value`) and `skanc_coarse` (by
    /// `coarse_window` and `coarse_name`). Spark gets them as arrays instead (`lookupColumns`): its optimizer
    /// spends minutes on a join whose key is a long expression.
    func lookupStages() -> [Stage] {
        guard dialect != .spark else { return [] }
        let table = fineTable()
        let fine = table.rows.enumerated().map { index, row in
            "  SELECT \(index / 64) AS fine_app, \(index % 64) AS fine_value, "
                + zip(row, table.columns).map { "\($0) AS \($1)" }.joined(separator: ", ")
        }
        let meanings = coarseMeanings()
        let coarse = catalog.apps.indices.flatMap { app in
            ConversionWindow.allCases.flatMap { window in
                CoarseValue.allCases.enumerated().map { index, value in
                    "  SELECT \(app) AS coarse_app, \(window) AS coarse_window, '\(value.rawValue)' AS coarse_name, "
                        + "\(meanings[app * 9 + window.postbackSequenceIndex * 3 + index]) AS coarse_meaning"
                }
            }
        }
        return [
            Stage(name: "skanc_fine", body: fine.joined(separator: "\n  UNION ALL\n")),
            Stage(name: "skanc_coarse", body: coarse.joined(separator: "\n  UNION ALL\n")),
        ]
    }

    /// The fine table's columns for the row's fine value, and the source of the stage that reads them.
    func lookupColumns() -> (columns: [String], source: String) {
        let slot = catalog.routesByApp ? ["\(appSlot()) AS app_slot"] : []
        guard dialect == .spark else {
            let app = catalog.routesByApp ? " AND f.fine_app = \(appSlot("n."))" : ""
            return (
                ["n.*", "f.*"] + (slot.isEmpty ? [] : ["\(appSlot("n.")) AS app_slot"]),
                "skanc_numbers AS n LEFT JOIN skanc_fine AS f ON f.fine_value = n.fine_n\(app)"
            )
        }
        let table = fineTable()
        let index = "CAST((\(appSlot())) * 64 + fine_n AS INT) + 1"
        let columns = table.columns.indices.map { column in
            let values = table.rows.map { $0[column] }.joined(separator: ", ")
            return
                "CASE WHEN fine_n BETWEEN 0 AND 63 AND (\(appSlot())) IS NOT NULL THEN element_at(array(\(values)), \(index)) END AS \(table.columns[column])"
        }
        return (["*"] + columns + slot, "skanc_numbers")
    }

    /// The coarse meaning of the row's window and coarse value, and the join that gives it.
    func coarseMeaningColumn() -> (expression: String, join: String) {
        let app = catalog.routesByApp ? "app_slot" : "0"
        // Spark gives an element for an index computed from a NULL slot, so the slot is tested first.
        let known = catalog.routesByApp ? " AND app_slot IS NOT NULL" : ""
        guard dialect == .spark else {
            return (
                "m.coarse_meaning",
                "LEFT JOIN skanc_coarse AS m ON m.coarse_app = \(catalog.routesByApp ? "c.app_slot" : "0") "
                    + "AND m.coarse_window = c.window_number AND m.coarse_name = c.coarse_v"
            )
        }
        let index =
            "\(app) * 9 + (window_number - 1) * 3 + CASE coarse_v WHEN 'low' THEN 1 WHEN 'medium' THEN 2 WHEN 'high' THEN 3 END"
        return (
            "CASE WHEN coarse_v IN ('low', 'medium', 'high')\(known) THEN element_at(array(\(coarseMeanings().joined(separator: ", "))), CAST(\(index) AS INT)) END",
            ""
        )
    }

    /// The columns of `skanc postbacks`, in its order, with the duplicate check: an `ok` line whose
    /// transaction or postback identifier an earlier line has (UUIDs compared without case).
    func finalSelect() -> String {
        let id = "transaction_v"
        let uuid = """
            length(\(id)) = 36 AND length(replace(\(id), '-', '')) = 32 AND substr(\(id), 9, 1) = '-' \
            AND substr(\(id), 14, 1) = '-' AND substr(\(id), 19, 1) = '-' AND substr(\(id), 24, 1) = '-' \
            AND \(dialect.trimBoth("lower(\(id))", "'0123456789abcdef-'")) = ''
            """
        let key = "CASE WHEN \(uuid) THEN lower(\(id)) ELSE \(id) END"
        // Ranked among the lines that pass every check: a bad line never takes a key from a later genuine one.
        let earlier = "ROW_NUMBER() OVER (PARTITION BY \(key), status_checked ORDER BY line) > 1"
        let tier = """
            CASE WHEN NOT decoded OR did_win_v = 'false' THEN NULL \
            WHEN (aak OR version_known = '4.0') AND window_number = 1 THEN \
            CASE WHEN fine_v IS NOT NULL AND publisher_v IS NOT NULL THEN 3 WHEN fine_v IS NOT NULL THEN 2 \
            WHEN (aak AND publisher_item_v IS NOT NULL) OR (NOT aak AND source_app_v IS NOT NULL) THEN 3 \
            WHEN coarse_v IS NOT NULL THEN 1 \
            WHEN source_digits_ok AND length(source_v) >= 3 THEN 2 END END
            """
        let valid = "fine_n BETWEEN 0 AND 63 AND fine_valid = 1"
        let meaning = coarseMeaningColumn()
        // Every column of `skanc postbacks` but `file` (the view reads one table of lines), in its order.
        let layout = PostbackRowWriter.layout(
            catalog: catalog, withFile: false, withReceipt: names.receivedColumn != nil)
        let columns = layout.map { column -> (String, String) in
            let expression: String
            switch column {
            case .field(let name, _): expression = "CASE WHEN \(valid) THEN f_\(name) END"
            case .fixed(let fixed):
                switch fixed {
                case .file: preconditionFailure("the view has no file column")
                case .line: expression = "line"
                case .receivedAt: expression = "received_at"
                case .status:
                    expression =
                        "CASE WHEN status_checked = 'ok' AND \(id) IS NOT NULL AND \(earlier) THEN 'duplicate' ELSE status_checked END"
                case .signature: expression = "CAST(NULL AS \(dialect.textType))"
                case .framework:
                    expression =
                        "CASE WHEN NOT decoded THEN NULL WHEN aak THEN 'adattributionkit' ELSE 'skadnetwork' END"
                case .version: expression = "CASE WHEN decoded AND NOT aak THEN COALESCE(version_known, version_v) END"
                case .transactionID: expression = id
                case .adNetworkID: expression = "network_v"
                case .sourceIdentifier: expression = "source_v"
                case .sourceDigits: expression = "CASE WHEN source_digits_ok THEN length(source_v) END"
                case .campaignID: expression = "campaign_v"
                case .appID: expression = "app_v"
                case .publisher: expression = "publisher_v"
                case .publisherKind: expression = "publisher_kind"
                case .marketplace: expression = "marketplace_v"
                case .postbackSequenceIndex: expression = "sequence_v"
                case .didWin: expression = "did_win_v"
                case .interaction:
                    expression =
                        "CASE WHEN aak THEN CASE WHEN interaction_v IN ('click', 'view') THEN interaction_v END WHEN fidelity_n = 0 THEN 'view' WHEN fidelity_n = 1 THEN 'click' END"
                case .conversionType:
                    expression =
                        "CASE WHEN aak THEN \(Self.conversionTypeCell) WHEN redownload_v = 'true' THEN 'redownload' WHEN redownload_v = 'false' THEN 'download' END"
                case .tier: expression = tier
                case .countryCode: expression = "CASE WHEN country_ok THEN country_v END"
                case .fineValue: expression = "fine_v"
                case .coarseValue: expression = "coarse_v"
                case .schemaVersion: expression = "CASE WHEN \(valid) THEN f_schema_version END"
                case .coarseMeaning: expression = meaning.expression
                }
            }
            return (column.name, expression)
        }
        let list = columns.map { "  \($0.1) AS \(dialect.identifier($0.0))" }.joined(separator: ",\n")
        return """
            SELECT
            \(list)
            FROM skanc_checked AS c
            \(meaning.join)
            """
    }
}
