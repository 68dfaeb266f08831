/// The columns of `skanc postbacks`, declared once: their names, their order (the declaration's), what
/// their cells hold and where each comes from per framework. The CSV header, the JSON lines keys, the row
/// writer's order, the SQL view's `SELECT`, the command's help, docs/Postbacks.md's table and the names a
/// schema field may not take all derive from this list.
public enum PostbackColumn: String, CaseIterable, Sendable {
    case file
    case line
    /// When `skanc serve` received the postback; only when an input has its receipt times.
    case receivedAt = "received_at"
    case status
    case signature
    case framework
    case version
    case transactionID = "transaction_id"
    case adNetworkID = "ad_network_id"
    case sourceIdentifier = "source_identifier"
    case sourceDigits = "source_digits"
    case campaignID = "campaign_id"
    case appID = "app_id"
    case publisher
    case publisherKind = "publisher_kind"
    case marketplace
    case postbackSequenceIndex = "postback_sequence_index"
    case didWin = "did_win"
    case interaction
    case conversionType = "conversion_type"
    case tier
    case countryCode = "country_code"
    case fineValue = "fine_value"
    case coarseValue = "coarse_value"
    /// With versions live together; the schema's field columns follow it.
    case schemaVersion = "schema_version"
    case coarseMeaning = "coarse_meaning"

    /// What a column's cells hold, which decides JSON types and SQL types.
    public enum Kind: Sendable { case integer, text, boolean }

    /// The column's name in every output.
    public var name: String { rawValue }

    /// What the column's cells hold (field columns: text, or Boolean for a flag).
    public var kind: Kind {
        switch self {
        case .line, .sourceDigits, .postbackSequenceIndex, .tier, .fineValue, .schemaVersion: .integer
        case .didWin: .boolean
        default: .text
        }
    }

    /// The columns that come before the schema's fields: the fixed part of every row. `file` only when several
    /// files are read, `received_at` only when an input has its receipt times, `schema_version` only when several
    /// versions are live together.
    public static let beforeFields: [PostbackColumn] = Array(allCases.prefix { $0 != .coarseMeaning })
    /// The columns after the schema's fields.
    public static let afterFields: [PostbackColumn] = [.coarseMeaning]

    /// Where the column's value comes from in a SKAdNetwork postback and in an AdAttributionKit one, as
    /// docs/Postbacks.md's table says it ("same" when both read alike; empty when the framework has none).
    public var source: (skadnetwork: String, adAttributionKit: String) {
        switch self {
        case .file: ("only when several files are read", "")
        case .line: ("the 1-based line number in its file (blank lines count)", "")
        case .receivedAt:
            (
                "when `skanc serve` received it, UTC to the second (`2026-12-03T13:30:00Z`), from the `.times` file beside the input; only when an input has one",
                ""
            )
        case .status: ("`ok` or a problem code (below)", "")
        case .signature:
            (
                "`verified`, `development`, `invalid`, `missing`, `unknown-key` or `unsupported`; empty with `--no-verify`",
                "same"
            )
        case .framework: ("`skadnetwork`", "`adattributionkit`")
        case .version:
            (
                "the version the line was checked as: `1.0` (no `version`), `2.0` … `4.0`; an unknown one as sent",
                "empty"
            )
        case .transactionID: ("`transaction-id`", "`postback-identifier`")
        case .adNetworkID: ("`ad-network-id`", "`ad-network-identifier`")
        case .sourceIdentifier: ("`source-identifier` (4.0), the string as sent", "`source-identifier`")
        case .sourceDigits: ("2, 3 or 4 when `source-identifier` is that many digits", "same")
        case .campaignID: ("`campaign-id` (1.0-3.0)", "empty")
        case .appID: ("`app-id`", "`advertised-item-identifier`")
        case .publisher: ("`source-app-id`, else `source-domain`", "`publisher-item-identifier`")
        case .publisherKind: ("`app` (`source-app-id`) or `web` (`source-domain`)", "`app`")
        case .marketplace: ("empty", "`marketplace-identifier`")
        case .postbackSequenceIndex: ("`postback-sequence-index`", "same")
        case .didWin: ("`did-win`", "same")
        case .interaction: ("`view` / `click` from `fidelity-type` 0 / 1", "`ad-interaction-type`")
        case .conversionType:
            (
                "`download` / `redownload` from `redownload`",
                "`conversion-type` (`download`, `redownload`, `re-engagement`)"
            )
        case .tier: ("the privacy tier the fields imply (below)", "same")
        case .countryCode: ("`country-code` (4.0)", "`country-code`")
        case .fineValue: ("`conversion-value` as sent", "same")
        case .coarseValue: ("`coarse-conversion-value` as sent", "same")
        case .schemaVersion: ("the version that decoded the fine value, with versions live together", "same")
        case .coarseMeaning:
            ("the schema's rule for the coarse value in the postback's window (`postback-sequence-index` + 1)", "same")
        }
    }
}
