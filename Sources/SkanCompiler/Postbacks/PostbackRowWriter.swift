/// Writes rows as CSV (RFC 4180, spreadsheet-safe) or JSON lines into a byte buffer that the caller
/// drains. Everything that depends only on the schema (field cells for each of the 64 fine values, the
/// meaning of each coarse value in each window) is rendered once, up front.
public struct PostbackRowWriter {
    public enum Format: String, Sendable, CaseIterable { case csv, jsonl }

    /// The columns, in order; `file` comes first when several files are read.
    public static func columns(schema: Schema, withFile: Bool) -> [String] {
        (withFile ? ["file"] : []) + [
            "line", "status", "kind", "version", "transaction_id", "ad_network_id", "source_id", "app_id",
            "postback_sequence_index", "did_win", "fidelity_type", "redownload", "country_code", "fine_value", "coarse_value",
        ] + schema.fields.map { ColumnNames.snakeCase($0.name) } + ["coarse_meaning"]
    }

    let format: Format
    let columns: [String]
    let withFile: Bool
    /// Field cells of each fine value, with their leading separators; index 64 holds the empty cells.
    private let fieldCells: [[UInt8]]
    /// `coarse_meaning` of each window (0...2) and coarse value, ready to write.
    private let coarseMeanings: [[[UInt8]]]
    private var fileCell: [UInt8] = []
    public internal(set) var buffer: [UInt8] = []
    var scratch: [UInt8] = []

    public init(schema: Schema, format: Format, withFile: Bool) {
        self.format = format
        self.withFile = withFile
        self.columns = PostbackRowWriter.columns(schema: schema, withFile: withFile)
        let fieldNames = schema.fields.map { ColumnNames.snakeCase($0.name) }
        var cells: [[UInt8]] = Schema.fineValueRange.map { fine in
            guard case .success(let state) = schema.decode(fineValue: fine) else { return [] }
            let names = schema.cases(of: state).map { $0!.name }
            return zip(zip(fieldNames, names), schema.fields).flatMap { pair, field -> [UInt8] in
                let (column, name) = pair
                if format == .csv { return Array(("," + CSVRenderer.field(name)).utf8) }
                let value = field.isFlag ? name : JSONValue.quoted(name)
                return Array(",\(JSONValue.quoted(column)):\(value)".utf8)
            }
        }
        let empty: [UInt8] = format == .csv ? Array(String(repeating: ",", count: fieldNames.count).utf8)
            : Array(fieldNames.map { ",\(JSONValue.quoted($0)):null" }.joined().utf8)
        cells = cells.map { $0.isEmpty ? empty : $0 }
        cells.append(empty)
        self.fieldCells = cells
        self.coarseMeanings = Schema.windows.map { window in
            CoarseValue.allCases.map { value in
                let rule = schema.ruleText(for: value, window: window)
                return Array((format == .csv ? CSVRenderer.field(rule) : JSONValue.quoted(rule)).utf8)
            }
        }
        buffer.reserveCapacity(1 << 21)
    }

    /// The CSV header row; JSON lines have none.
    public mutating func writeHeader() {
        guard format == .csv else { return }
        buffer.append(contentsOf: columns.joined(separator: ",").utf8)
        buffer.append(UInt8(ascii: "\n"))
    }

    /// The file name cell for the rows that follow (only when several files are read).
    public mutating func setFile(_ name: String) {
        guard withFile else { return }
        fileCell = Array((format == .csv ? CSVRenderer.field(name) : JSONValue.quoted(name)).utf8)
    }

    mutating func write(_ row: PostbackRow, line number: Int, bytes line: UnsafeBufferPointer<UInt8>, payload: UnsafeBufferPointer<UInt8>) {
        let csv = format == .csv
        var column = 0
        func separator() {
            if csv {
                if column > 0 { buffer.append(UInt8(ascii: ",")) }
            } else {
                buffer.append(column == 0 ? UInt8(ascii: "{") : UInt8(ascii: ","))
                buffer.append(UInt8(ascii: "\""))
                buffer.append(contentsOf: columns[column].utf8)
                buffer.append(contentsOf: "\":".utf8)
            }
            column += 1
        }
        if !fileCell.isEmpty {
            separator()
            buffer.append(contentsOf: fileCell)
        }
        separator()
        appendInteger(number)
        separator()
        appendText(row.status.rawValue)
        separator()
        if let kind = row.kind { appendText(kind == .skadnetwork ? "skadnetwork" : "adattributionkit") } else { appendNull() }
        separator(); appendCell(row.version, line: line, payload: payload)
        separator(); appendCell(row.transactionID, line: line, payload: payload)
        separator(); appendCell(row.adNetworkID, line: line, payload: payload)
        separator(); appendCell(row.sourceID, line: line, payload: payload)
        separator(); appendCell(row.appID, line: line, payload: payload)
        separator(); appendCell(row.sequenceIndex, line: line, payload: payload)
        separator(); appendCell(row.didWin, line: line, payload: payload)
        separator(); appendCell(row.fidelityType, line: line, payload: payload)
        separator(); appendCell(row.redownload, line: line, payload: payload)
        separator(); appendCell(row.countryCode, line: line, payload: payload)
        separator(); appendCell(row.fineCell, line: line, payload: payload)
        separator(); appendCell(row.coarseCell, line: line, payload: payload)
        // The field cells carry their own separators (and keys, in JSON lines).
        buffer.append(contentsOf: fieldCells[row.fineIsValid ? row.fineValue! : 64])
        column = columns.count - 1
        separator()
        if let coarse = row.coarseValue {
            buffer.append(contentsOf: coarseMeanings[row.window - 1][coarse == .low ? 0 : coarse == .medium ? 1 : 2])
        } else {
            appendNull()
        }
        if !csv { buffer.append(UInt8(ascii: "}")) }
        buffer.append(UInt8(ascii: "\n"))
    }
}
