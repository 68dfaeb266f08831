import SkanCore
import SkanSchema

/// Reads a row's group key for a tally: for each grouping, the cell's text as `skanc postbacks` prints it
/// before CSV escaping (a string decoded, a number as written), encoded as `PostbackTally.encodedKey` does,
/// into bytes reused from row to row: counting a row makes no string unless a cell holds escapes.
struct GroupKeyReader {
    let groupings: [PostbackGrouping]
    let zeroIsNull: Bool
    /// Per app and fine value (`app * 64 + fine`), the version it belongs to (with versions live together), as
    /// text.
    let versionOfFine: [String?]
    /// Each app's ID as text, where postbacks are routed by app: an `ok` row's app is then one of the catalog's,
    /// and `app_id` groups by it as the catalog writes it (`111.0` in a postback is app 111).
    let appIDs: [String]?
    /// Each grouping's columns' letters, found once rather than per row.
    private let groupingLetters: [(first: UInt8, campaignID: UInt8)]
    /// The day last written for `day`, by its number from 1970: a batch's postbacks mostly share their day.
    private var lastDay: (number: Int, text: String) = (Int.min, "")

    init(groupings: [PostbackGrouping], zeroIsNull: Bool, catalog: SchemaCatalog) {
        self.groupings = groupings
        self.zeroIsNull = zeroIsNull
        versionOfFine = catalog.apps.flatMap { app in
            Schema.fineValueRange.map { fine in
                guard case .version(let schema) = app.versions.owner(of: fine) else { return nil }
                return String(schema.version)
            }
        }
        appIDs = catalog.routesByApp ? catalog.apps.map { String($0.appID!) } : nil
        groupingLetters = groupings.map {
            (PostbackTally.letter(of: $0.columns[0]), PostbackTally.letter(of: .campaignID))
        }
    }

    /// Writes the key of `row` (an `ok` row, received at `receivedAt` when its input has receipt times) into
    /// `key`, replacing what it held.
    mutating func key(
        _ row: PostbackRow, line: UnsafeBufferPointer<UInt8>, payload: UnsafeBufferPointer<UInt8>, receivedAt: Int?,
        scratch: inout [UInt8], into key: inout [UInt8]
    ) {
        key.removeAll(keepingCapacity: true)
        for (grouping, letters) in zip(groupings, groupingLetters) {
            // `campaign` is the source identifier's campaign digits, or before SKAdNetwork 4.0 the campaign ID.
            if grouping == .campaign && row.sourceIdentifier == nil && row.campaignID != nil {
                append(letters.campaignID, .campaignID, row, line, payload, &scratch, &key)
            } else if grouping == .campaign {
                append(
                    letters.first, cell: row.sourceIdentifier, line, payload, &scratch, &key,
                    prefix: PostbackGrouping.campaignDigits, keepingShorter: true)
            } else if grouping == .day {
                let text = receivedAt.map { day($0) }
                append(letters.first, text: text, &key)
            } else if let digits = grouping.prefixLength {
                append(letters.first, cell: row.sourceIdentifier, line, payload, &scratch, &key, prefix: digits)
            } else {
                append(letters.first, grouping.columns[0], row, line, payload, &scratch, &key)
            }
        }
    }

    /// Appends the row's cell in `column` (one of the columns a grouping names) to `key`.
    private func append(
        _ letter: UInt8, _ column: PostbackColumn, _ row: PostbackRow, _ line: UnsafeBufferPointer<UInt8>,
        _ payload: UnsafeBufferPointer<UInt8>, _ scratch: inout [UInt8], _ key: inout [UInt8]
    ) {
        switch column {
        case .sourceIdentifier: append(letter, cell: row.sourceIdentifier, line, payload, &scratch, &key)
        case .campaignID: append(letter, cell: row.campaignID, line, payload, &scratch, &key)
        case .adNetworkID: append(letter, cell: row.adNetworkID, line, payload, &scratch, &key)
        case .appID:
            if let appIDs, row.app >= 0 {
                append(letter, text: appIDs[row.app], &key)
            } else {
                append(letter, cell: row.appID, line, payload, &scratch, &key)
            }
        case .publisher: append(letter, cell: row.publisher, line, payload, &scratch, &key)
        case .countryCode: append(letter, cell: row.countryCode, line, payload, &scratch, &key)
        case .didWin: append(letter, cell: row.didWin, line, payload, &scratch, &key)
        case .framework: append(letter, text: row.framework.map { String(describing: $0.name) }, &key)
        case .conversionType: append(letter, text: row.conversionType.map { String(describing: $0.name) }, &key)
        case .interaction: append(letter, text: row.interaction.map { String(describing: $0.name) }, &key)
        case .schemaVersion:
            let fine = row.fineIsValid && !(zeroIsNull && row.fineValue == 0) ? row.fineValue : nil
            append(letter, text: fine.flatMap { versionOfFine[max(row.app, 0) * 64 + $0] }, &key)
        default: preconditionFailure("no grouping reads \(column)")
        }
    }

    /// `2026-12-03`: the UTC day of Unix seconds.
    private mutating func day(_ seconds: Int) -> String {
        let number = seconds / 86_400
        if number != lastDay.number { lastDay = (number, UTCTime.day(seconds)) }
        return lastDay.text
    }

    /// A cell's text: a string's contents decoded, any other value as written; none for no cell. With `prefix`,
    /// only its first `prefix` bytes, and none when it has fewer (an `ok` source identifier is ASCII digits).
    @inline(__always)
    private func append(
        _ letter: UInt8, cell: PostbackRow.Cell, _ line: UnsafeBufferPointer<UInt8>,
        _ payload: UnsafeBufferPointer<UInt8>, _ scratch: inout [UInt8], _ key: inout [UInt8], prefix: Int? = nil,
        keepingShorter: Bool = false
    ) {
        guard let cell else { return PostbackTally.appendKey(letter, nil, to: &key) }
        let bytes = cell.source == .line ? line : payload
        let span = cell.span
        if span.kind == .string, span.hasEscapes {
            let text = JSONStringDecoding.decode(bytes, span.start, span.end, scratch: &scratch)
            guard let prefix else { return append(letter, text: text, &key) }
            let kept =
                text.utf8.count >= prefix || keepingShorter
                ? String(decoding: text.utf8.prefix(prefix), as: UTF8.self) : nil
            return append(letter, text: kept, &key)
        }
        guard let prefix else {
            return PostbackTally.appendKey(
                letter, UnsafeBufferPointer(rebasing: bytes[span.start..<span.end]), to: &key)
        }
        guard span.end - span.start >= prefix || keepingShorter else {
            return PostbackTally.appendKey(letter, nil, to: &key)
        }
        PostbackTally.appendKey(
            letter, UnsafeBufferPointer(rebasing: bytes[span.start..<min(span.end, span.start + prefix)]), to: &key)
    }

    private func append(_ letter: UInt8, text: String?, _ key: inout [UInt8]) {
        guard var text else { return PostbackTally.appendKey(letter, nil, to: &key) }
        text.withUTF8 { PostbackTally.appendKey(letter, $0, to: &key) }
    }
}
