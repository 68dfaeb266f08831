import Foundation
import SkanAppleAds
import SkanCompiler

/// Apple Ads attribution records (AdServices API answers and iAd dictionaries, one JSON object a line) as
/// rows of one set of columns, CSV (RFC 4180, spreadsheet-safe) or JSON lines. Every non-blank line gets a
/// row with its line number and a status: `ok`, or why it is not a record.
struct AttributionRows {
    enum Format: String, CaseIterable { case csv, jsonl }

    static let columns = [
        "line", "status", "field", "source", "attributed", "organization_id", "campaign_id", "ad_group_id",
        "keyword_id", "ad_id", "click_date", "country_or_region", "conversion_type",
    ]
    /// Lines longer than this are `line-too-long`, unread.
    static let maximumLineBytes = 1 << 20

    let format: Format
    let withFile: Bool
    private(set) var counts: [String: Int] = [:]
    private(set) var rows = 0

    init(format: Format, withFile: Bool) {
        self.format = format
        self.withFile = withFile
    }

    var header: String {
        format == .csv ? ((withFile ? ["file"] : []) + Self.columns).joined(separator: ",") + "\r\n" : ""
    }

    /// The rows of `data`, the contents of `file`.
    mutating func rows(of data: Data, file: String) -> String {
        var output = ""
        var number = 0
        var start = data.startIndex
        while start < data.endIndex {
            let end = data[start...].firstIndex(of: 0x0A) ?? data.endIndex
            number += 1
            var line = data[start..<end]
            while let last = line.last, last == 0x0D || last == 0x20 || last == 0x09 { line = line.dropLast() }
            if line.contains(where: { $0 != 0x20 && $0 != 0x09 }) {
                output += row(line, number: number, file: file)
            }
            start = end < data.endIndex ? data.index(after: end) : end
        }
        return output
    }

    private mutating func row(_ line: Data, number lineNumber: Int, file: String) -> String {
        var cells: [(String, Cell)] = [("line", .number("\(lineNumber)"))]
        let record: AppleAdsAttribution?
        var status = "ok"
        var field: String? = nil
        if line.count > Self.maximumLineBytes {
            status = "line-too-long"
            record = nil
        } else {
            do {
                record = try AppleAdsAttribution(json: Data(line))
            } catch {
                (status, field, record) = (error.code, error.key, nil)
            }
        }
        counts[status, default: 0] += 1
        rows += 1
        func number(_ value: Int?) -> Cell { value.map { .number("\($0)") } ?? .null }
        func text(_ value: String?) -> Cell { value.map(Cell.text) ?? .null }
        cells += [
            ("status", .text(status)), ("field", text(field)), ("source", text(record?.source.rawValue)),
            ("attributed", record.map { .literal($0.attributed ? "true" : "false") } ?? .null),
            ("organization_id", number(record?.organization)), ("campaign_id", number(record?.campaign)),
            ("ad_group_id", number(record?.adGroup)), ("keyword_id", number(record?.keyword)),
            ("ad_id", number(record?.ad)), ("click_date", text(record?.clickDate)),
            ("country_or_region", text(record?.countryOrRegion)), ("conversion_type", text(record?.conversionType)),
        ]
        if withFile { cells.insert(("file", .text(file)), at: 0) }
        switch format {
        case .csv:
            return cells.map { $0.1.csv }.joined(separator: ",") + "\r\n"
        case .jsonl:
            return "{" + cells.map { "\(JSONString.quoted($0.0)):\($0.1.json)" }.joined(separator: ",") + "}\n"
        }
    }

    /// A cell: text from the input (escaped), a number or Boolean the reader produced, or nothing.
    enum Cell {
        case text(String)
        case number(String)
        case literal(String)
        case null

        var csv: String {
            switch self {
            case .text(let text): CSVField.escaped(text)
            case .number(let text), .literal(let text): text
            case .null: ""
            }
        }

        var json: String {
            switch self {
            case .text(let text): JSONString.quoted(text)
            case .number(let text), .literal(let text): text
            case .null: "null"
            }
        }
    }
}
