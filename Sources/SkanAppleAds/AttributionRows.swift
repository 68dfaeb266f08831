import Foundation
import SkanCore

/// Apple Ads attribution records (AdServices API answers and iAd dictionaries, one JSON object a line) as
/// rows of one set of columns, CSV (RFC 4180, spreadsheet-safe) or JSON lines. Every non-blank line gets a
/// row with its line number and a status: `ok`, or why it is not a record.
package struct AttributionRows {
    package enum Format: String, CaseIterable { case csv, jsonl }

    /// The columns after `line`, `status` and `field`, each with the cell it takes from a record: the one list
    /// the header and the rows are both made from.
    static let recordColumns: [(name: String, cell: @Sendable (AppleAdsAttribution) -> Cell)] = [
        ("source", { .text($0.source.rawValue) }), ("attributed", { .literal($0.attributed ? "true" : "false") }),
        ("organization_id", { .number($0.organization) }), ("campaign_id", { .number($0.campaign) }),
        ("ad_group_id", { .number($0.adGroup) }), ("keyword_id", { .number($0.keyword) }),
        ("ad_id", { .number($0.ad) }), ("creative_set_id", { .number($0.creativeSet) }),
        ("click_date", { .optionalText($0.clickDate) }), ("impression_date", { .optionalText($0.impressionDate) }),
        ("claim_type", { .optionalText($0.claimType) }), ("supply_placement", { .optionalText($0.supplyPlacement) }),
        ("country_or_region", { .optionalText($0.countryOrRegion) }),
        ("conversion_type", { .optionalText($0.conversionType) }),
    ]
    package static let columns = ["line", "status", "field"] + recordColumns.map(\.name)
    /// Lines longer than this (line end excluded, a carriage return counted) are `line-too-long`, unread: the
    /// same bound and measure as `skanc postbacks`.
    static let maximumLineBytes = LineLimit.maximumBytes

    let format: Format
    let withFile: Bool
    package private(set) var counts: [String: Int] = [:]
    package private(set) var rows = 0
    /// The line read so far (across chunks), its number, and whether it has passed the bound.
    private var pending: [UInt8] = []
    private var pendingIsTooLong = false
    private var lineNumber = 0

    package init(format: Format, withFile: Bool) {
        self.format = format
        self.withFile = withFile
    }

    package var header: String {
        format == .csv ? ((withFile ? ["file"] : []) + Self.columns).joined(separator: ",") + "\r\n" : ""
    }

    /// The rows of the lines `chunk` completes; a line cut by the chunk's end waits for the next chunk (or
    /// `finish`). Memory stays within one line, whatever the size of the file.
    package mutating func rows(ofChunk chunk: ArraySlice<UInt8>, file: String) -> String {
        var output = ""
        var start = chunk.startIndex
        while start < chunk.endIndex {
            guard let end = chunk[start...].firstIndex(of: 0x0A) else {
                take(chunk[start...])
                break
            }
            take(chunk[start..<end])
            output += completeLine(file: file)
            start = end + 1
        }
        return output
    }

    /// The row of a last line without a line end, and a fresh start for the next file.
    package mutating func finish(file: String) -> String {
        let output = pending.isEmpty && !pendingIsTooLong ? "" : completeLine(file: file)
        lineNumber = 0
        return output
    }

    /// Ends a file whose reading stopped: its unfinished last line is dropped (never written as a row of its
    /// own), and the next file starts at line 1.
    package mutating func abandon() {
        (pending, pendingIsTooLong, lineNumber) = ([], false, 0)
    }

    private mutating func take(_ bytes: ArraySlice<UInt8>) {
        guard !pendingIsTooLong else { return }
        if pending.count + bytes.count > Self.maximumLineBytes {
            pendingIsTooLong = true
            pending = []
        } else {
            pending += bytes
        }
    }

    private mutating func completeLine(file: String) -> String {
        defer { (pending, pendingIsTooLong) = ([], false) }
        lineNumber += 1
        if pendingIsTooLong { return row(nil, number: lineNumber, file: file) }
        var line = pending[...]
        while let last = line.last, last == 0x0D || last == 0x20 || last == 0x09 { line = line.dropLast() }
        guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return "" }
        return row(Data(line), number: lineNumber, file: file)
    }

    /// The row of one line; nil for a line over the bound.
    private mutating func row(_ line: Data?, number lineNumber: Int, file: String) -> String {
        var cells: [(String, Cell)] = [("line", .number(lineNumber))]
        let record: AppleAdsAttribution?
        var status = "ok"
        var field: String? = nil
        if let line {
            do {
                record = try AppleAdsAttribution(json: line)
                // A development build's sample record is no attribution: told apart, never counted as `ok`.
                if record?.isSample == true { status = "sample" }
            } catch {
                (status, field, record) = (error.code, error.key, nil)
            }
        } else {
            status = "line-too-long"
            record = nil
        }
        counts[status, default: 0] += 1
        rows += 1
        cells += [("status", .text(status)), ("field", .optionalText(field))]
        cells += Self.recordColumns.map { column in (column.name, record.map(column.cell) ?? .null) }
        if withFile { cells.insert(("file", .text(file)), at: 0) }
        switch format {
        case .csv:
            return cells.map { $0.1.csv }.joined(separator: ",") + "\r\n"
        case .jsonl:
            return "{" + cells.map { "\(JSONString.quoted($0.0)):\($0.1.json)" }.joined(separator: ",") + "}\n"
        }
    }

    /// A cell: text from the input (escaped), a number or Boolean the reader produced, or nothing.
    enum Cell: Sendable {
        case text(String)
        case literal(String)
        case null

        /// Text, or nothing for nil.
        static func optionalText(_ value: String?) -> Cell { value.map(Cell.text) ?? .null }
        /// A number, or nothing for nil.
        static func number(_ value: Int?) -> Cell { value.map { .literal("\($0)") } ?? .null }

        var csv: String {
            switch self {
            case .text(let text): CSVField.escaped(text)
            case .literal(let text): text
            case .null: ""
            }
        }

        var json: String {
            switch self {
            case .text(let text): JSONString.quoted(text)
            case .literal(let text): text
            case .null: "null"
            }
        }
    }
}
