import SkanCompiler
import SkanSchemaTools

/// Reads a row's group key for a tally: for each grouping, the cell's text as `skanc postbacks` prints it
/// before CSV escaping (a string decoded, a number as written), encoded as `PostbackTally.encodedKey` does.
/// Keys of up to 15 bytes (a campaign's digits, a country code) stay inside the string, without allocating.
struct GroupKeyReader {
    let groupings: [PostbackGrouping]
    let zeroIsNull: Bool
    /// Per fine value, the version it belongs to (with versions live together), as text.
    let versionOfFine: [String?]

    init(groupings: [PostbackGrouping], zeroIsNull: Bool, versions: LiveVersions) {
        self.groupings = groupings
        self.zeroIsNull = zeroIsNull
        versionOfFine = (0..<64).map { fine in
            guard case .version(let schema) = versions.owner(of: fine) else { return nil }
            return String(schema.version)
        }
    }

    func key(
        _ row: PostbackRow, line: UnsafeBufferPointer<UInt8>, payload: UnsafeBufferPointer<UInt8>,
        scratch: inout [UInt8]
    ) -> String {
        var key = ""
        for grouping in groupings {
            // `campaign` is the source identifier, or before SKAdNetwork 4.0 the campaign ID.
            let column =
                grouping == .campaign && row.sourceIdentifier == nil && row.campaignID != nil
                ? .campaignID : grouping.columns[0]
            PostbackTally.appendKey(column, value(column, row, line, payload, &scratch), to: &key)
        }
        return key
    }

    /// The row's cell in `column` (one of the columns a grouping names) as text.
    private func value(
        _ column: PostbackColumn, _ row: PostbackRow, _ line: UnsafeBufferPointer<UInt8>,
        _ payload: UnsafeBufferPointer<UInt8>, _ scratch: inout [UInt8]
    ) -> String? {
        switch column {
        case .sourceIdentifier: text(row.sourceIdentifier, line, payload, &scratch)
        case .campaignID: text(row.campaignID, line, payload, &scratch)
        case .adNetworkID: text(row.adNetworkID, line, payload, &scratch)
        case .appID: text(row.appID, line, payload, &scratch)
        case .publisher: text(row.publisher, line, payload, &scratch)
        case .countryCode: text(row.countryCode, line, payload, &scratch)
        case .framework: row.framework.map { String(describing: $0.name) }
        case .conversionType: row.conversionType.map { String(describing: $0.name) }
        case .interaction: row.interaction.map { String(describing: $0.name) }
        case .schemaVersion:
            (row.fineIsValid && !(zeroIsNull && row.fineValue == 0) ? row.fineValue : nil).flatMap { versionOfFine[$0] }
        default: preconditionFailure("no grouping reads \(column)")
        }
    }

    /// A cell's text: a string's contents decoded, any other value as written; nil for no cell.
    @inline(__always)
    private func text(
        _ cell: PostbackRow.Cell, _ line: UnsafeBufferPointer<UInt8>, _ payload: UnsafeBufferPointer<UInt8>,
        _ scratch: inout [UInt8]
    ) -> String? {
        guard let cell else { return nil }
        let bytes = cell.source == .line ? line : payload
        let span = cell.span
        if span.kind == .string, span.hasEscapes {
            return JSONStringDecoding.decode(bytes, span.start, span.end, scratch: &scratch)
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[span.start..<span.end]), as: UTF8.self)
    }
}
