public import SkanCore
public import SkanPostbacks

/// Spend per ad network, campaign and day, as an analyst exports it from the networks' dashboards: CSV (RFC
/// 4180) with the header `network,campaign,day,spend,currency`, one row per network, campaign and day. What
/// `skanc report --cost` joins to the groups for spend, cost per install and return on ad spend, as MMP
/// dashboards and the App Reporting Pack do.
public struct CostTable: Sendable {
    /// One row of spend.
    public struct Row: Sendable, Equatable {
        /// The `ad-network-id` the spend went to.
        public var network: String
        /// The campaign as the postbacks' source identifier (or campaign ID) writes it; rolled up to the digits
        /// a report groups by (`5239` counts for `52` by `source_identifier_2`).
        public var campaign: String
        /// The UTC day, `2026-12-03`.
        public var day: String
        /// The amount spent, exactly.
        public var spend: DecimalAmount
        /// The line of the file (the header is line 1).
        public var line: Int
    }

    /// Why a cost file cannot be used, at which line, and what to write instead.
    public struct Invalid: Error, Equatable {
        /// The problem and what to do.
        public var message: String
        /// The line it is on (1 for the header); nil for the file as a whole.
        public var line: Int?
    }

    /// The columns, in order.
    public static let columns = ["network", "campaign", "day", "spend", "currency"]

    /// The rows, in file order.
    public let rows: [Row]
    /// The ISO 4217 code every row's spend is in.
    public let currency: String

    /// The table a CSV text holds.
    public init(csv: String) throws(Invalid) {
        let body = try CSVTable.rows(csv, columns: Self.columns)
        guard !body.isEmpty else { throw Invalid(message: "no row of spend under the header", line: nil) }
        // Every spend at one scale: the most fraction digits any row writes.
        let scale = body.map { $0.record.count == 5 ? Self.fractionDigits($0.record[3]) : 0 }.max() ?? 0
        var rows: [Row] = []
        var currencies: Set<String> = []
        var seen: [[String]: Int] = [:]
        for (line, record) in body {
            guard record.count == 5 else {
                throw Invalid(
                    message: "a row has 5 cells (\(Self.columns.joined(separator: ","))), not \(record.count)",
                    line: line)
            }
            let (network, campaign, day, spendText, currency) = (record[0], record[1], record[2], record[3], record[4])
            guard !network.isEmpty, !campaign.isEmpty else {
                throw Invalid(message: "name the network and the campaign", line: line)
            }
            // A campaign is what postbacks carry: a source identifier (up to 4 digits) or a campaign ID (1-100).
            guard campaign.utf8.count <= 4, campaign.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                throw Invalid(
                    message: "the campaign is the digits postbacks carry (a source identifier such as 5239, or a "
                        + "campaign ID), not '\(TerminalText.visible(campaign, oneLine: true))'", line: line)
            }
            guard Self.isDay(day) else {
                throw Invalid(message: "the day is written 2026-12-03, not '\(day)'", line: line)
            }
            guard scale <= 6, let spend = DecimalAmount(spendText, scale: scale) else {
                throw Invalid(
                    message: "the spend is an amount of at most 6 decimals, like 1234.50, not '\(spendText)'",
                    line: line)
            }
            guard currency.count == 3, currency.utf8.allSatisfy({ (0x41...0x5A).contains($0) }),
                CurrencyMinorUnits.isListed(currency)
            else {
                throw Invalid(
                    message: "the currency is an ISO 4217 code such as USD, not "
                        + "'\(TerminalText.visible(currency, oneLine: true))'", line: line)
            }
            let key = [network, campaign, day]
            if let first = seen[key] {
                throw Invalid(
                    message: "a second row for this network, campaign and day (the first is line \(first)): "
                        + "add them up into one row", line: line)
            }
            seen[key] = line
            currencies.insert(currency)
            rows.append(Row(network: network, campaign: campaign, day: day, spend: spend, line: line))
        }
        guard currencies.count == 1, let currency = currencies.first else {
            throw Invalid(
                message: "spend in \(currencies.sorted().joined(separator: " and ")): convert it to one currency first",
                line: nil)
        }
        self.rows = rows
        self.currency = currency
    }

    /// The groupings spend can be joined to: the ad network, one campaign grouping and optionally the day; nil
    /// when `groupings` are those, else what to group by instead.
    public static func problem(with groupings: [PostbackGrouping]) -> String? {
        let campaigns: Set<PostbackGrouping> = [
            .campaign, .sourceIdentifier, .sourceIdentifier2, .sourceIdentifier3, .campaignID,
        ]
        let others = groupings.filter { $0 != .adNetworkID && $0 != .day && !campaigns.contains($0) }
        guard groupings.contains(.adNetworkID), groupings.filter(campaigns.contains).count == 1, others.isEmpty
        else {
            return "spend is per network, campaign and day: group by ad_network_id and one of campaign, "
                + "source_identifier, source_identifier_2, source_identifier_3, campaign_id (and day), nothing else"
        }
        return nil
    }

    /// The campaign a row counts for under `grouping`: its first two or three digits for the rollups (nil when
    /// it has fewer), for `campaign` its first two (a source identifier's campaign digits; a shorter campaign ID
    /// as written), else as written.
    func campaign(of row: Row, for grouping: PostbackGrouping) -> String? {
        Self.campaign(row.campaign, for: grouping)
    }

    /// `campaign` as written in a file (a source identifier or a campaign ID) rolled up as `grouping` keys it.
    static func campaign(_ campaign: String, for grouping: PostbackGrouping) -> String? {
        if grouping == .campaign {
            return String(decoding: campaign.utf8.prefix(PostbackGrouping.campaignDigits), as: UTF8.self)
        }
        guard let digits = grouping.prefixLength else { return campaign }
        return campaign.utf8.count >= digits ? String(decoding: campaign.utf8.prefix(digits), as: UTF8.self) : nil
    }

    private static func fractionDigits(_ text: String) -> Int {
        guard let dot = text.firstIndex(of: ".") else { return 0 }
        return text.distance(from: text.index(after: dot), to: text.endIndex)
    }

    /// Whether `text` is a day as reports write it: `YYYY-MM-DD`.
    private static func isDay(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == 0x2D, bytes[7] == 0x2D else { return false }
        let digits = bytes.enumerated().filter { $0.offset != 4 && $0.offset != 7 }.map(\.element)
        guard digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return false }
        func number(_ range: Range<Int>) -> Int { Int(String(decoding: bytes[range], as: UTF8.self))! }
        return UTCTime.isDate(year: number(0..<4), month: number(5..<7), day: number(8..<10))
    }
}

extension DiagnosticCode {
    /// `report --cost`: the file is read, but it is not a cost table (`CostTable`).
    public static let costInvalid = DiagnosticCode("cost-invalid")
}
