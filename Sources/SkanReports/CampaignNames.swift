public import SkanCore
import SkanPostbacks

/// What a team calls its campaigns: CSV with the header `network,campaign,name`, one row per network and campaign
/// (a source identifier of 2 to 4 digits, or a campaign ID), as `skanc report --names` reads it. A report shows
/// each campaign row with its name; a name given for finer digits (`5239`) names the campaign they fold into
/// (`52`), several names of one campaign joined.
public struct CampaignNames: Sendable {
    /// One name.
    public struct Row: Sendable, Equatable {
        /// The `ad-network-id`.
        public var network: String
        /// The campaign as the postbacks write it.
        public var campaign: String
        /// The name.
        public var name: String
    }

    /// The columns, in order.
    public static let columns = ["network", "campaign", "name"]

    /// The rows, in file order.
    public let rows: [Row]

    /// The names a CSV text holds; `CostTable.Invalid` at the line of the first problem.
    public init(csv: String) throws(CostTable.Invalid) {
        var rows: [Row] = []
        var seen: [[String]: Int] = [:]
        for (line, record) in try CSVTable.rows(csv, columns: Self.columns) {
            guard record.count == 3, record.allSatisfy({ !$0.isEmpty }) else {
                throw CostTable.Invalid(message: "a row has a network, a campaign and a name, none empty", line: line)
            }
            let key = [record[0], record[1]]
            if let first = seen[key] {
                throw CostTable.Invalid(
                    message: "this network and campaign are named on line \(first) already", line: line)
            }
            seen[key] = line
            rows.append(Row(network: record[0], campaign: record[1], name: record[2]))
        }
        guard !rows.isEmpty else { throw CostTable.Invalid(message: "no name under the header", line: nil) }
        self.rows = rows
    }
}

extension PostbackReport {
    /// The report with each group of `names`' network and campaign (rolled up to the grouping's digits) named;
    /// `CostTable.problem(with:)` says which groupings can be.
    public func withNames(_ names: CampaignNames) -> PostbackReport {
        var report = self
        report.named = true
        guard let network = groupings.firstIndex(of: .adNetworkID),
            let campaign = groupings.firstIndex(where: { $0 != .adNetworkID && $0 != .day })
        else { return report }
        var byKey: [[String?]: Set<String>] = [:]
        for row in names.rows {
            let key = [row.network, CostTable.campaign(row.campaign, for: groupings[campaign])]
            byKey[key, default: []].insert(row.name)
        }
        for index in report.groups.indices {
            let by = report.groups[index].by
            if let named = byKey[[by[network].text, by[campaign].text]] {
                report.groups[index].name = named.sorted().joined(separator: ", ")
            }
        }
        return report
    }
}

extension DiagnosticCode {
    /// `report --names`: the file is read, but it is not a names table (`CampaignNames`).
    public static let namesInvalid = DiagnosticCode("names-invalid")
}
