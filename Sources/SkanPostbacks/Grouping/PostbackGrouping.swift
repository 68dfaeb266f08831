public import SkanSchema

/// What a report groups `ok` postbacks by (`skanc report --by`): each a column of `skanc postbacks`, and
/// `campaign`, the campaign as the network defines it. The names are the command line's and the JSON report's;
/// the warehouse views group by the same columns.
public enum PostbackGrouping: String, CaseIterable, Sendable {
    /// The campaign as the network defines it: the first two digits of the source identifier where the postback
    /// has one (SKAdNetwork 4.0, AdAttributionKit: Apple's hierarchy makes them the campaign every tier reports,
    /// and the finer digits of tiers 2-3 fold into it), the campaign ID before 4.0.
    case campaign
    case sourceIdentifier = "source_identifier"
    /// The first two digits of the source identifier: Apple's hierarchy makes them the campaign every tier
    /// reports (tiers 0-1 send two digits, tier 2 three, tier 3 four), so each campaign is one group.
    case sourceIdentifier2 = "source_identifier_2"
    /// The first three digits; empty for a postback that shows only two.
    case sourceIdentifier3 = "source_identifier_3"
    case campaignID = "campaign_id"
    case adNetworkID = "ad_network_id"
    case appID = "app_id"
    case publisher
    case countryCode = "country_code"
    case framework
    case conversionType = "conversion_type"
    case interaction
    /// Whether the postback is the winner's (`true`) or a contributing network's (`false`, SKAdNetwork 4.0 and
    /// AdAttributionKit): the App Reporting Pack reports won and contributed apart.
    case didWin = "did_win"
    case schemaVersion = "schema_version"
    /// The UTC day `skanc serve` received the postback (`2026-12-03`), from `received_at`: Apple's postbacks carry
    /// no time, so a feed is cut by day only where the receiver kept it.
    case day

    /// The columns a group's key can name for this grouping: one, or for `campaign` the two it chooses from
    /// (`source_identifier` first).
    public var columns: [PostbackColumn] {
        switch self {
        case .campaign: [.sourceIdentifier, .campaignID]
        case .sourceIdentifier, .sourceIdentifier2, .sourceIdentifier3: [.sourceIdentifier]
        case .campaignID: [.campaignID]
        case .adNetworkID: [.adNetworkID]
        case .appID: [.appID]
        case .publisher: [.publisher]
        case .countryCode: [.countryCode]
        case .framework: [.framework]
        case .conversionType: [.conversionType]
        case .interaction: [.interaction]
        case .didWin: [.didWin]
        case .schemaVersion: [.schemaVersion]
        case .day: [.receivedAt]
        }
    }

    /// What a report groups by unless told otherwise: the ad network and the campaign, as each network sees its
    /// campaigns (two networks' campaigns share source identifiers: grouped by campaign alone they merge).
    public static let defaults: [PostbackGrouping] = [.adNetworkID, .campaign]

    /// The digits of the source identifier this grouping keeps (2 or 3), or nil when it keeps the whole cell.
    public var prefixLength: Int? {
        switch self {
        case .sourceIdentifier2: 2
        case .sourceIdentifier3: 3
        default: nil
        }
    }

    /// The digits of a source identifier that name its campaign (`campaign`).
    public static let campaignDigits = 2

    /// The name a key's value read from `column` has in reports: the grouping's, but for `campaign` the
    /// column it came from.
    public func keyName(of column: PostbackColumn) -> String { self == .campaign ? column.name : rawValue }

    /// Every name this grouping's values can have in reports, in `columns` order.
    public var keyNames: [String] { columns.map(keyName) }
}

/// One value of a group's key: the column it was read from and the cell's text (nil when the postback has
/// none), as `skanc postbacks` prints the cell before CSV escaping.
public struct GroupValue: Hashable, Sendable {
    /// The column the value is read from.
    public var column: PostbackColumn
    /// The cell's text; nil for an empty cell.
    public var text: String?
    /// The value's name in reports (`PostbackGrouping.keyName(of:)`): the column's unless a grouping names it.
    public var name: String

    /// A value of `column`, named `name` (the column's name when nil).
    public init(column: PostbackColumn, text: String?, name: String? = nil) {
        self.column = column
        self.text = text
        self.name = name ?? column.name
    }
}
