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
            switch grouping {
            case .campaign:
                if row.sourceIdentifier == nil, row.campaignID != nil {
                    PostbackTally.appendKey(.campaignID, text(row.campaignID, line, payload, &scratch), to: &key)
                } else {
                    PostbackTally.appendKey(
                        .sourceIdentifier, text(row.sourceIdentifier, line, payload, &scratch), to: &key)
                }
            case .sourceIdentifier:
                PostbackTally.appendKey(
                    .sourceIdentifier, text(row.sourceIdentifier, line, payload, &scratch), to: &key)
            case .campaignID:
                PostbackTally.appendKey(.campaignID, text(row.campaignID, line, payload, &scratch), to: &key)
            case .adNetworkID:
                PostbackTally.appendKey(.adNetworkID, text(row.adNetworkID, line, payload, &scratch), to: &key)
            case .appID:
                PostbackTally.appendKey(.appID, text(row.appID, line, payload, &scratch), to: &key)
            case .publisher:
                PostbackTally.appendKey(.publisher, text(row.publisher, line, payload, &scratch), to: &key)
            case .countryCode:
                PostbackTally.appendKey(.countryCode, text(row.countryCode, line, payload, &scratch), to: &key)
            case .framework:
                PostbackTally.appendKey(.framework, row.framework.map { String(describing: $0.name) }, to: &key)
            case .conversionType:
                PostbackTally.appendKey(
                    .conversionType, row.conversionType.map { String(describing: $0.name) }, to: &key)
            case .interaction:
                PostbackTally.appendKey(.interaction, row.interaction.map { String(describing: $0.name) }, to: &key)
            case .schemaVersion:
                let fine = row.fineIsValid && !(zeroIsNull && row.fineValue == 0) ? row.fineValue : nil
                PostbackTally.appendKey(.schemaVersion, fine.flatMap { versionOfFine[$0] }, to: &key)
            }
        }
        return key
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
