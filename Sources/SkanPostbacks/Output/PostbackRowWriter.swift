import SkanCore
public import SkanSchema

/// Writes rows as CSV (RFC 4180, spreadsheet-safe) or JSON lines into a byte buffer that the caller
/// drains. Everything that depends only on the schema (field cells for each of the 64 fine values, the
/// meaning of each coarse value in each window) is rendered once, up front.
public struct PostbackRowWriter {
    /// The columns of a row, in order, from `PostbackColumn`'s declaration and the versions' fields.
    public static func layout(versions: LiveVersions, withFile: Bool, withReceipt: Bool = false) -> [PostbackRowColumn]
    {
        layout(catalog: SchemaCatalog(versions), withFile: withFile, withReceipt: withReceipt)
    }

    /// The columns of a row, in order, from `PostbackColumn`'s declaration and the fields of every app's versions.
    public static func layout(catalog: SchemaCatalog, withFile: Bool, withReceipt: Bool = false)
        -> [PostbackRowColumn]
    {
        let fixed = PostbackColumn.beforeFields.filter {
            ($0 != .file || withFile) && ($0 != .receivedAt || withReceipt)
                && ($0 != .schemaVersion || catalog.saysVersion)
        }
        return fixed.map(PostbackRowColumn.fixed)
            + catalog.fieldColumns.map { PostbackRowColumn.field(name: $0.name, isFlag: $0.isFlag) }
            + PostbackColumn.afterFields.map(PostbackRowColumn.fixed)
    }

    let format: PostbackFormat
    let columns: [String]
    let withFile: Bool
    let withReceipt: Bool
    /// Everything that depends only on the schema, rendered once. The writer reads it through the pointer
    /// tables below, which the templates own; a row then costs no reference counting on shared objects.
    private let templates: RowTemplates
    private let fieldCells: UnsafeBufferPointer<UnsafeBufferPointer<UInt8>>
    private let coarseMeanings: UnsafeBufferPointer<UnsafeBufferPointer<UInt8>>
    private let prefixes: UnsafeBufferPointer<UnsafeBufferPointer<UInt8>>
    private var fileCell: [UInt8] = []
    /// The receipt time cell last written, for the time it renders: a batch's lines mostly share their second.
    private var receiptCell: (seconds: Int, bytes: [UInt8]) = (-1, [])
    /// The rows written and not yet drained.
    var buffer = ByteBuffer(capacity: 1 << 16)
    var scratch: [UInt8] = []

    /// A writer that shares `templates` (read-only) with other writers of the same run.
    init(format: PostbackFormat, templates: RowTemplates) {
        self.format = format
        withFile = templates.layout.contains(.fixed(.file))
        withReceipt = templates.layout.contains(.fixed(.receivedAt))
        self.columns = templates.columns
        self.templates = templates
        fieldCells = templates.fieldCells
        coarseMeanings = templates.coarseMeanings
        prefixes = templates.prefixes
    }

    /// The CSV header row; JSON lines have none.
    mutating func writeHeader() {
        guard format == .csv else { return }
        var out = buffer.cursor()
        out.append(columns.joined(separator: ","))
        appendLineEnd(to: &out)
        buffer.commit(out)
    }

    /// The file name cell for the rows that follow (only when several files are read).
    mutating func setFile(_ name: String) {
        guard withFile else { return }
        fileCell = Array((format == .csv ? CSVField.escaped(name) : JSONString.quoted(name)).utf8)
    }

    /// The columns before `signature`: the file (when several are read), the line number, the receipt time (when
    /// the inputs have theirs) and the status. Returns where the status starts in the buffer: the duplicate
    /// check, which runs later and in input order, rewrites it there.
    @discardableResult
    mutating func appendPrefix(line number: Int, receivedAt: Int?, status: PostbackStatus) -> Int {
        if withReceipt, let receivedAt, receivedAt != receiptCell.seconds {
            let text = UTCTime.iso8601(receivedAt)
            receiptCell = (receivedAt, Array((format == .csv ? text : "\"" + text + "\"").utf8))
        }
        var out = buffer.cursor()
        defer { buffer.commit(out) }
        var column = 0
        if withFile {
            separator(&column, .file, to: &out)
            out.append(fileCell)
        }
        separator(&column, .line, to: &out)
        out.append(decimal: number)
        if withReceipt {
            separator(&column, .receivedAt, to: &out)
            if receivedAt != nil { out.append(receiptCell.bytes) } else { appendNull(to: &out) }
        }
        separator(&column, .status, to: &out)
        let offset = out.offset
        appendStatus(status, to: &out)
        return offset
    }

    /// A status cell on its own, as `appendPrefix` writes it.
    func statusCell(_ status: PostbackStatus) -> [UInt8] {
        format == .jsonl ? Array("\"\(status.code)\"".utf8) : Array(status.code.utf8)
    }

    /// The columns from `kind` on, and the line end.
    mutating func appendSuffix(
        _ row: PostbackRow, line: UnsafeBufferPointer<UInt8>, payload: UnsafeBufferPointer<UInt8>
    ) {
        var out = buffer.cursor()
        defer { buffer.commit(out) }
        var column = 2 + (withFile ? 1 : 0) + (withReceipt ? 1 : 0)
        separator(&column, .signature, to: &out)
        appendText(row.signature.map(Self.signatureText), to: &out)
        separator(&column, .framework, to: &out)
        appendText(row.framework?.name, to: &out)
        separator(&column, .version, to: &out)
        if let version = row.version {
            appendText(Self.versionText(version), to: &out)
        } else {
            appendCell(row.versionCell, line: line, payload: payload, to: &out)
        }
        separator(&column, .transactionID, to: &out)
        appendCell(row.transactionID, line: line, payload: payload, to: &out)
        separator(&column, .adNetworkID, to: &out)
        appendCell(row.adNetworkID, line: line, payload: payload, to: &out)
        separator(&column, .sourceIdentifier, to: &out)
        appendCell(row.sourceIdentifier, line: line, payload: payload, to: &out)
        separator(&column, .sourceDigits, to: &out)
        appendSmallInteger(row.sourceDigits > 0 ? row.sourceDigits : nil, to: &out)
        separator(&column, .campaignID, to: &out)
        appendCell(row.campaignID, line: line, payload: payload, to: &out)
        separator(&column, .appID, to: &out)
        appendCell(row.appID, line: line, payload: payload, to: &out)
        separator(&column, .publisher, to: &out)
        appendCell(row.publisher, line: line, payload: payload, asText: true, to: &out)
        separator(&column, .publisherKind, to: &out)
        switch row.publisherKind {
        case .app: appendText("app", to: &out)
        case .web: appendText("web", to: &out)
        case nil: appendNull(to: &out)
        }
        separator(&column, .marketplace, to: &out)
        appendCell(row.marketplace, line: line, payload: payload, to: &out)
        separator(&column, .postbackSequenceIndex, to: &out)
        appendCell(row.sequenceIndex, line: line, payload: payload, to: &out)
        separator(&column, .didWin, to: &out)
        appendCell(row.didWin, line: line, payload: payload, to: &out)
        separator(&column, .interaction, to: &out)
        appendText(row.interaction?.name, to: &out)
        separator(&column, .conversionType, to: &out)
        appendText(row.conversionType?.name, to: &out)
        separator(&column, .tier, to: &out)
        appendSmallInteger(row.tier >= 0 ? Int(row.tier) : nil, to: &out)
        separator(&column, .countryCode, to: &out)
        appendCell(row.countryCode, line: line, payload: payload, to: &out)
        separator(&column, .fineValue, to: &out)
        appendCell(row.fineCell, line: line, payload: payload, to: &out)
        separator(&column, .coarseValue, to: &out)
        appendCell(row.coarseCell, line: line, payload: payload, to: &out)
        // The field cells carry their own separators (and keys, in JSON lines).
        out.append(fieldCells[row.fineIsValid ? row.app * 64 + row.fineValue! : fieldCells.count - 1])
        column = prefixes.count - 1
        separator(&column, .coarseMeaning, to: &out)
        if let coarse = row.coarseValue {
            let app = row.app >= 0 ? row.app : coarseMeanings.count / 9 - 1
            out.append(
                coarseMeanings[app * 9 + (row.window - 1) * 3 + (coarse == .low ? 0 : coarse == .medium ? 1 : 2)])
        } else {
            appendNull(to: &out)
        }
        if format == .jsonl { out.append(UInt8(ascii: "}")) }
        appendLineEnd(to: &out)
    }

    /// CRLF after a CSV row (RFC 4180), LF after a JSON line.
    @inline(__always)
    private func appendLineEnd(to out: inout ByteCursor) {
        if format == .csv { out.append(UInt8(ascii: "\r")) }
        out.append(UInt8(ascii: "\n"))
    }

    private static func signatureText(_ outcome: SignatureOutcome) -> StaticString {
        switch outcome {
        case .verified: "verified"
        case .development: "development"
        case .invalid: "invalid"
        case .missing: "missing"
        case .unknownKey: "unknown-key"
        case .unsupported: "unsupported"
        }
    }

    private static func versionText(_ version: PostbackRules.SKAdNetworkVersion) -> StaticString {
        switch version {
        case .v1: "1.0"
        case .v2: "2.0"
        case .v2point1: "2.1"
        case .v2point2: "2.2"
        case .v3: "3.0"
        case .v4: "4.0"
        }
    }

    /// What comes before a column's value: a comma in CSV; `{"name":` or `,"name":` in JSON lines. `expected` is
    /// the column the caller writes next: debug builds check it against the layout, so the order the cells are
    /// written in cannot drift from `PostbackColumn`'s.
    @inline(__always)
    private func separator(_ column: inout Int, _ expected: PostbackColumn, to out: inout ByteCursor) {
        assert(templates.layout[column] == .fixed(expected), "column \(column) is not \(expected)")
        if format == .csv {
            if column > 0 { out.append(UInt8(ascii: ",")) }
        } else {
            out.append(prefixes[column])
        }
        column += 1
    }
}

/// Byte strings kept in one allocation that lives as long as the writers, with tables of pointers to them,
/// so that writing a row reads them without reference counting.
final class RowTemplates {
    let layout: [PostbackRowColumn]
    var columns: [String] { layout.map(\.name) }
    /// Per app, whether each fine value 0...63 is a state of the schema (of exactly one of the live versions):
    /// `app * 64 + fine`.
    let validFine: [Bool]
    /// Per app, whether each fine value 0...63 is valid in several of the live versions.
    let ambiguousFine: [Bool]
    private let storage: UnsafeMutablePointer<UInt8>
    private let pieces: UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>
    /// Per app, the field cells of each fine value 0...63 (`app * 64 + fine`), and last those of a row without a
    /// valid fine value.
    let fieldCells: UnsafeBufferPointer<UnsafeBufferPointer<UInt8>>
    /// Per app, the coarse meanings by window and value (`app * 9 + (window - 1) * 3 + value`), and last those of
    /// a row of an app the catalog does not hold.
    let coarseMeanings: UnsafeBufferPointer<UnsafeBufferPointer<UInt8>>
    /// What comes before each column's value.
    let prefixes: UnsafeBufferPointer<UnsafeBufferPointer<UInt8>>

    /// Renders everything that depends only on the schema and the format.
    convenience init(schema: Schema, format: PostbackFormat, withFile: Bool) {
        self.init(versions: LiveVersions([schema]), format: format, withFile: withFile, withReceipt: false)
    }

    /// Renders everything that depends only on the versions and the format: each fine value's cells come
    /// from the one version it belongs to (with `schema_version` when several are live together).
    convenience init(versions: LiveVersions, format: PostbackFormat, withFile: Bool, withReceipt: Bool) {
        self.init(catalog: SchemaCatalog(versions), format: format, withFile: withFile, withReceipt: withReceipt)
    }

    /// Renders everything that depends only on the apps' versions and the format: for each app, each fine value's
    /// cells from the one version it belongs to, and each coarse value's meaning; then, for a row with no valid
    /// fine value or of an app the catalog does not hold, empty cells. Tables are indexed `app * 64 + fine` and
    /// `app * 9 + (window - 1) * 3 + value`, as the writer reads them.
    convenience init(catalog: SchemaCatalog, format: PostbackFormat, withFile: Bool, withReceipt: Bool) {
        let layout = PostbackRowWriter.layout(catalog: catalog, withFile: withFile, withReceipt: withReceipt)
        let columns = layout.map(\.name)
        let fieldColumns = catalog.fieldColumns
        let saysVersion = catalog.saysVersion
        let emptyNames = (saysVersion ? ["schema_version"] : []) + fieldColumns.map(\.name)
        let empty: [UInt8] =
            format == .csv
            ? Array(String(repeating: ",", count: emptyNames.count).utf8)
            : Array(emptyNames.map { ",\(JSONString.quoted($0)):null" }.joined().utf8)
        var cells: [[UInt8]] = []
        var meanings: [[UInt8]] = []
        var validFine: [Bool] = []
        var ambiguousFine: [Bool] = []
        for app in catalog.apps {
            let versions = app.versions
            let own = versions.fieldColumns.map(\.name)
            for fine in Schema.fineValueRange {
                guard let (version, names) = versions.fieldCases(fine: fine) else {
                    cells.append(empty)
                    continue
                }
                var row: [UInt8] = []
                if saysVersion {
                    row += Array((format == .csv ? ",\(version)" : ",\"schema_version\":\(version)").utf8)
                }
                for column in fieldColumns {
                    let name = own.firstIndex(of: column.name).flatMap { names[$0] }
                    switch (format, name) {
                    case (.csv, let name?): row += Array(("," + CSVField.escaped(name)).utf8)
                    case (.csv, nil): row.append(UInt8(ascii: ","))
                    case (.jsonl, let name?):
                        // A flag's case is a JSON Boolean; a column that is a flag in one app and not in another
                        // keeps each app's own cases as strings.
                        let value =
                            column.isFlag && (name == "true" || name == "false") ? name : JSONString.quoted(name)
                        row += Array(",\(JSONString.quoted(column.name)):\(value)".utf8)
                    case (.jsonl, nil): row += Array(",\(JSONString.quoted(column.name)):null".utf8)
                    }
                }
                cells.append(row)
            }
            meanings += ConversionWindow.allCases.flatMap { window in
                CoarseValue.allCases.map { value in
                    let rule = versions.coarseMeaning(value, window: window)
                    return Array((format == .csv ? CSVField.escaped(rule) : JSONString.quoted(rule)).utf8)
                }
            }
            let owners = Schema.fineValueRange.map { versions.owner(of: $0) }
            validFine += owners.map { if case .version = $0 { true } else { false } }
            ambiguousFine += owners.map { if case .ambiguous = $0 { true } else { false } }
        }
        // A row with no valid fine value, and a row of an app the catalog does not hold.
        cells.append(empty)
        meanings += Array(repeating: Array((format == .csv ? "" : "null").utf8), count: 9)
        let prefixes = columns.indices.map { index -> [UInt8] in
            if format == .csv { return index == 0 ? [] : [UInt8(ascii: ",")] }
            return Array(((index == 0 ? "{" : ",") + JSONString.quoted(columns[index]) + ":").utf8)
        }
        self.init(
            layout: layout, validFine: validFine, ambiguousFine: ambiguousFine, fieldCells: cells,
            coarseMeanings: meanings, prefixes: prefixes)
    }

    init(
        layout: [PostbackRowColumn], validFine: [Bool], ambiguousFine: [Bool], fieldCells: [[UInt8]],
        coarseMeanings: [[UInt8]],
        prefixes: [[UInt8]]
    ) {
        self.layout = layout
        self.validFine = validFine
        self.ambiguousFine = ambiguousFine
        let all = fieldCells + coarseMeanings + prefixes
        storage = .allocate(capacity: max(1, all.reduce(0) { $0 + $1.count }))
        pieces = .allocate(capacity: all.count)
        var offset = 0
        for (index, bytes) in all.enumerated() {
            (storage + offset).initialize(from: bytes, count: bytes.count)
            pieces.initializeElement(at: index, to: UnsafeBufferPointer(start: storage + offset, count: bytes.count))
            offset += bytes.count
        }
        let (cells, meanings) = (fieldCells.count, coarseMeanings.count)
        self.fieldCells = UnsafeBufferPointer(rebasing: pieces[0..<cells])
        self.coarseMeanings = UnsafeBufferPointer(rebasing: pieces[cells..<(cells + meanings)])
        self.prefixes = UnsafeBufferPointer(rebasing: pieces[(cells + meanings)...])
    }

    deinit {
        pieces.deallocate()
        storage.deallocate()
    }
}
