import SkanCore

/// The opening every table file a report reads shares (the cost file, the names file): a UTF-8 byte order mark
/// (Excel's "CSV UTF-8") dropped, strict RFC 4180 records, the header exactly `columns`, and the rows under it
/// with their line numbers (a blank line left out). A problem is `CostTable.Invalid` at its line.
enum CSVTable {
    static func rows(_ csv: String, columns: [String]) throws(CostTable.Invalid) -> [(line: Int, record: [String])] {
        let text = csv.hasPrefix("\u{FEFF}") ? String(csv.dropFirst()) : csv
        let records: [[String]]
        do {
            records = try StrictCSV.records(text)
        } catch {
            // The line the malformed byte is on (the byte order mark takes none).
            let line = Array(text.utf8).prefix(error.offset).count { $0 == 10 } + 1
            throw CostTable.Invalid(message: "not CSV: \(error.reason)", line: line)
        }
        guard records.first == columns else {
            throw CostTable.Invalid(message: "the header is \(columns.joined(separator: ",")), in that order", line: 1)
        }
        return records.dropFirst().enumerated().filter { $0.element != [""] }.map { ($0.offset + 2, $0.element) }
    }
}
