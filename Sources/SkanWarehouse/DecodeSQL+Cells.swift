import SkanPostbacks

extension DecodeSQL {
    /// The JSON type a cell must have.
    enum Kind {
        case string, number, boolean

        func matches(_ type: String) -> String {
            switch self {
            case .string: "\(type) = 'string'"
            case .number: "\(type) = 'number'"
            case .boolean: "\(type) IN ('true', 'false')"
            }
        }
    }

    /// Where a value comes from. In an AdAttributionKit stanza identifiers count only from the signed
    /// payload and values only from the line; a key the payload also holds is not read from the line, as
    /// the decoder keeps the payload's.
    enum Side { case line, payload }

    /// A cell a column or check reads: the key it comes from in each framework, and its type.
    struct Cell {
        var name: String
        var kind: Kind
        var skadnetwork: PostbackKey?
        var adAttributionKit: (key: PostbackKey, side: Side)?
    }

    /// The cells, as `PostbackLineDecoder.readColumns` reads them.
    static let cells: [Cell] = [
        Cell(name: "version", kind: .string, skadnetwork: .version),
        Cell(
            name: "transaction", kind: .string, skadnetwork: .transactionID,
            adAttributionKit: (.postbackIdentifier, .payload)),
        Cell(
            name: "network", kind: .string, skadnetwork: .adNetworkID,
            adAttributionKit: (.adNetworkIdentifier, .payload)),
        Cell(
            name: "source", kind: .string, skadnetwork: .sourceIdentifier,
            adAttributionKit: (.sourceIdentifier, .payload)),
        Cell(name: "campaign", kind: .number, skadnetwork: .campaignID),
        Cell(name: "app", kind: .number, skadnetwork: .appID, adAttributionKit: (.advertisedItemIdentifier, .payload)),
        Cell(name: "publisher_item", kind: .number, adAttributionKit: (.publisherItemIdentifier, .payload)),
        Cell(name: "marketplace", kind: .string, adAttributionKit: (.marketplaceIdentifier, .payload)),
        Cell(name: "impression", kind: .string, adAttributionKit: (.impressionType, .payload)),
        Cell(name: "source_app", kind: .number, skadnetwork: .sourceAppID),
        Cell(name: "source_domain", kind: .string, skadnetwork: .sourceDomain),
        Cell(name: "did_win", kind: .boolean, skadnetwork: .didWin, adAttributionKit: (.didWin, .payload)),
        Cell(name: "conversion_type", kind: .string, adAttributionKit: (.conversionType, .payload)),
        Cell(name: "interaction", kind: .string, adAttributionKit: (.adInteractionType, .line)),
        Cell(name: "redownload", kind: .boolean, skadnetwork: .redownload),
        Cell(name: "fidelity", kind: .number, skadnetwork: .fidelityType),
        Cell(name: "country", kind: .string, skadnetwork: .countryCode, adAttributionKit: (.countryCode, .line)),
        Cell(
            name: "sequence", kind: .number, skadnetwork: .postbackSequenceIndex,
            adAttributionKit: (.postbackSequenceIndex, .payload)),
        Cell(name: "fine", kind: .number, skadnetwork: .conversionValue, adAttributionKit: (.conversionValue, .line)),
        Cell(
            name: "coarse", kind: .string, skadnetwork: .coarseConversionValue,
            adAttributionKit: (.coarseConversionValue, .line)),
    ]

    /// The numbers that are checked against a range: the cell and its range.
    static let ranges: [(cell: String, range: ClosedRange<Int>)] = [
        ("fidelity", 0...1), ("sequence", 0...2), ("fine", 0...63),
    ]

    /// Payload keys normalized (`pt_`, `px_`); then each cell's type `<cell>_t` and text `<cell>_x`, from the
    /// framework's side; then `<cell>_v`, the text when the type is right (`true`/`false` for Booleans).
    func cellStages() -> [Stage] {
        let normalized = PostbackKey.allCases.flatMap { key -> [String] in
            let column = Self.column(key)
            let type = dialect.normalizedType(name: "pr_\(column)", text: "pr_text_\(column)")
            var text = dialect.normalizedText(name: "pr_\(column)", text: "pr_text_\(column)")
            if exactNumberKeys.contains(key) {
                text = exactNumberText(text, type: "(\(type))", key: key, in: "payload_text")
            }
            return ["\(type) AS pt_\(column)", "\(text) AS px_\(column)"]
        }
        let lineColumns = PostbackKey.allCases.flatMap { ["lt_\(Self.column($0))", "lx_\(Self.column($0))"] }
        let keys = stage(
            "skanc_keys",
            [
                "line", "too_long", "is_json", "opens_object", "is_json AND opens_object AS decoded",
                "lt_jws_string IS NOT NULL AS aak", "payload_json IS NOT NULL AS payload_read",
            ]
                + carried + lineColumns + normalized,
            from: "skanc_payload_raw")
        func side(_ key: PostbackKey, _ side: Side, _ prefix: String) -> String {
            let column = Self.column(key)
            // What the line says counts only when the payload does not hold the key.
            return side == .payload
                ? "p\(prefix)_\(column)" : "CASE WHEN pt_\(column) IS NULL THEN l\(prefix)_\(column) END"
        }
        let cells = Self.cells.flatMap { cell -> [String] in
            func pick(_ prefix: String) -> String {
                let skadnetwork = cell.skadnetwork.map { side($0, .line, prefix) } ?? "NULL"
                let adAttributionKit = cell.adAttributionKit.map { side($0.key, $0.side, prefix) } ?? "NULL"
                return "CASE WHEN aak THEN \(adAttributionKit) ELSE \(skadnetwork) END"
            }
            return ["\(pick("t")) AS \(cell.name)_t", "\(pick("x")) AS \(cell.name)_x"]
        }
        let typed = stage("skanc_cells", ["*"] + cells, from: "skanc_keys")
        let values = Self.cells.map { cell in
            let value = cell.kind == .boolean ? "\(cell.name)_t" : "\(cell.name)_x"
            return "CASE WHEN \(cell.kind.matches("\(cell.name)_t")) THEN \(value) END AS \(cell.name)_v"
        }
        return [keys, typed, stage("skanc_values", ["*"] + values, from: "skanc_cells")]
            + exactNumberStages(from: "skanc_values")
    }
}
