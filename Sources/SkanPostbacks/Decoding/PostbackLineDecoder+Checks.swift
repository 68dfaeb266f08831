import SkanCore

extension PostbackLineDecoder {
    /// The bytes a cell's span lies in.
    @inline(__always)
    func bytes(of value: PostbackFields.Value, line: UnsafeBufferPointer<UInt8>, payload: UnsafeBufferPointer<UInt8>)
        -> UnsafeBufferPointer<UInt8>
    {
        value.source == .line ? line : payload
    }

    /// A string cell's text; one with escapes (`"\u006cow"`) is decoded first (a rare path that allocates),
    /// so it means what it spells.
    @inline(__always)
    func withText<T>(
        of cell: PostbackFields.Value, line: UnsafeBufferPointer<UInt8>, payload: UnsafeBufferPointer<UInt8>,
        _ body: (UnsafeBufferPointer<UInt8>) -> T
    ) -> T {
        let source = bytes(of: cell, line: line, payload: payload)
        guard cell.span.hasEscapes else {
            return body(UnsafeBufferPointer(rebasing: source[cell.span.start..<cell.span.end]))
        }
        var scratch: [UInt8] = []
        let decoded = JSONStringDecoding.decode(source, cell.span.start, cell.span.end, scratch: &scratch)
        return Array(decoded.utf8).withUnsafeBufferPointer(body)
    }

    /// Fills the row's columns and applies the type, range, Apple and schema checks, in status order
    /// (docs/Postbacks.md lists it).
    func check(_ line: UnsafeBufferPointer<UInt8>, payload: UnsafeBufferPointer<UInt8>, into row: inout PostbackRow) {
        readColumns(line, payload: payload, into: &row)
        if row.framework == .adattributionkit {
            checkAdAttributionKitFields(into: &row)
        } else {
            checkSKAdNetworkFields(line, into: &row)
        }
        checkValues(line, payload: payload, into: &row)
    }

    /// Every column, each value with its JSON type and range (`wrong-type`, `out-of-range`). In an
    /// AdAttributionKit stanza the identifiers count only from the signed payload and the values only from
    /// outside it; a value found on the wrong side is left to the field checks.
    private func readColumns(
        _ line: UnsafeBufferPointer<UInt8>, payload: UnsafeBufferPointer<UInt8>, into row: inout PostbackRow
    ) {
        let aak = row.framework == .adattributionkit
        let signed: PostbackFields.Source = aak ? .payload : .line
        func text<T>(_ cell: PostbackFields.Value, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
            withText(of: cell, line: line, payload: payload, body)
        }
        if !aak { row.versionCell = expect(.version, .string, from: .line, in: &row) }
        row.transactionID = expect(aak ? .postbackIdentifier : .transactionID, .string, from: signed, in: &row)
        row.adNetworkID = expect(aak ? .adNetworkIdentifier : .adNetworkID, .string, from: signed, in: &row)
        if let source = expect(.sourceIdentifier, .string, from: signed, in: &row) {
            row.sourceIdentifier = source
            row.sourceDigits = text(source) { digits in
                (2...4).contains(digits.count) && digits.allSatisfy(\.isDigit) ? digits.count : 0
            }
        }
        if !aak { row.campaignID = expect(.campaignID, .number, from: .line, in: &row) }
        row.appID = expect(aak ? .advertisedItemIdentifier : .appID, .number, from: signed, in: &row)
        if aak {
            if let item = expect(.publisherItemIdentifier, .number, from: .payload, in: &row) {
                (row.publisher, row.publisherKind) = (item, .app)
            }
            row.marketplace = expect(.marketplaceIdentifier, .string, from: .payload, in: &row)
            _ = expect(.impressionType, .string, from: .payload, in: &row)
        } else if let app = expect(.sourceAppID, .number, from: .line, in: &row) {
            (row.publisher, row.publisherKind) = (app, .app)
        } else if let domain = expect(.sourceDomain, .string, from: .line, in: &row) {
            (row.publisher, row.publisherKind) = (domain, .web)
        }
        row.didWin = expect(.didWin, .true, from: signed, in: &row)
        if aak {
            if let type = expect(.conversionType, .string, from: .payload, in: &row) {
                row.conversionType = text(type, Self.conversionType)
                if row.conversionType == nil { row.flag(.unknownConversionType) }
            }
            if let interaction = expect(.adInteractionType, .string, from: .line, in: &row) {
                row.interaction = text(interaction, Self.interaction)
                if row.interaction == nil { row.flag(.unknownInteractionType) }
            }
        } else {
            if let redownload = expect(.redownload, .true, from: .line, in: &row) {
                row.conversionType = redownload.span.kind == .true ? .redownload : .download
            }
            if let fidelity = expect(.fidelityType, .number, from: .line, in: &row),
                let value = checkRange(fidelity, 0...1, line: line, payload: payload, in: &row)
            {
                row.interaction = value == 0 ? .view : .click
            }
        }
        // Apple's `country-code` is a two-letter code (ISO 3166-1 alpha-2, "US"); any other text is mistyped.
        if let country = expect(.countryCode, .string, from: .line, in: &row) {
            if text(country, { $0.count == 2 && $0.allSatisfy(\.isASCIILetter) }) {
                row.countryCode = country
            } else {
                row.flag(.wrongType)
            }
        }
        if let index = expect(.postbackSequenceIndex, .number, from: signed, in: &row) {
            row.sequenceIndex = index
            if let value = checkRange(index, 0...2, line: line, payload: payload, in: &row) {
                row.window = value + 1
            }
        }
        if let fine = expect(.conversionValue, .number, from: .line, in: &row) {
            row.fineCell = fine
            if let value = checkRange(fine, 0...63, line: line, payload: payload, in: &row) {
                row.fineValue = value
            }
        }
        if let coarse = expect(.coarseConversionValue, .string, from: .line, in: &row) {
            row.coarseCell = coarse
            row.coarseValue = text(coarse, Self.coarseValue)
        }
        row.carriesValue = !fields.inLine.union(fields.inPayload).intersection(rules.values).isEmpty
    }

    /// The version, then the fields it must and may carry.
    private func checkSKAdNetworkFields(_ line: UnsafeBufferPointer<UInt8>, into row: inout PostbackRow) {
        if let cell = row.versionCell {
            guard let version = withText(of: cell, line: line, payload: line, PostbackRules.SKAdNetworkVersion.init)
            else {
                row.flag(.unknownVersion)
                return
            }
            row.version = version
        } else if fields.inLine.contains(.version) {
            return  // a version of the wrong type: already `wrong-type`
        } else {
            row.version = .v1
        }
        guard let version = row.version else { return }
        if !rules.required[version.rawValue].subtracting(fields.inLine).isEmpty { row.flag(.missingField) }
        if !fields.inLine.subtracting(rules.allowed[version.rawValue]).isEmpty { row.flag(.fieldNotAllowed) }
    }

    /// What the stanza and its signed payload must and may carry, and on which side.
    private func checkAdAttributionKitFields(into row: inout PostbackRow) {
        let (stanza, signed) = (fields.inLine, fields.inPayload)
        if !rules.payloadRequired.subtracting(signed).isEmpty { row.flag(.missingField) }
        let strangers = stanza.subtracting(rules.stanzaAllowed)
            .subtracting(rules.payloadAllowed)
            .union(
                signed.subtracting(rules.payloadAllowed).subtracting(rules.values))
        if !strangers.isEmpty { row.flag(.fieldNotAllowed) }
        if !stanza.intersection(rules.payloadAllowed).isEmpty { row.flag(.signedFieldOutside) }
        if !signed.intersection(rules.values).isEmpty { row.flag(.valueInPayload) }
    }

    /// The source identifier, the values and the winner's rules, the tier, and the schema's own check.
    private func checkValues(
        _ line: UnsafeBufferPointer<UInt8>, payload: UnsafeBufferPointer<UInt8>, into row: inout PostbackRow
    ) {
        if row.sourceIdentifier != nil, row.sourceDigits == 0 { row.flag(.badSourceIdentifier) }
        if row.coarseCell != nil, row.coarseValue == nil { row.flag(.unknownCoarse) }
        if row.fineCell != nil, row.coarseCell != nil { row.flag(.fineAndCoarse) }
        if row.fineValue != nil, row.window != 1 { row.flag(.fineNotFirst) }
        if let didWin = row.didWin, didWin.span.kind == .false {
            let laterPostback = row.window != 1
            // SKAdNetwork 3: "Postbacks that don't win the attribution … don't include source-app-id".
            let publisher = row.publisher != nil && (row.version ?? .v4) >= .v3
            if row.carriesValue || laterPostback || publisher { row.flag(.nonWinnerExtra) }
        } else {
            row.tier = Self.tier(row)
        }
        if let catalog {
            // Routed by app: the app ID picks the schemas (a missing or mistyped one is flagged above).
            var appID: UInt64? = nil
            if let app = row.appID,
                case .value(let number) = JSONInteger.read(
                    bytes(of: app, line: line, payload: payload), app.span.start, app.span.end), number >= 0
            {
                appID = UInt64(number)
            }
            row.app = catalog.index(ofApp: appID) ?? -1
            if row.app < 0 { row.flag(.unknownApp) }
        }
        if let fine = row.fineValue, row.app >= 0 {
            row.fineIsValid = validFine[row.app * 64 + fine]
            if !row.fineIsValid { row.flag(ambiguousFine[row.app * 64 + fine] ? .ambiguousVersion : .invalidFine) }
        }
        if row.framework == .skadnetwork, row.fineValue == 0, row.publisherKind == .app, let app = row.publisher,
            case .value(0) = JSONInteger.read(
                bytes(of: app, line: line, payload: payload), app.span.start, app.span.end)
        {
            row.flag(.testPostback)
        }
    }

    /// The privacy tier a winning first postback's fields show, and only what they show (Apple's tier table:
    /// tier 3 adds the publisher to tier 2's fine value; tier 1 has a coarse value; tier 0 no value and two
    /// digits of source identifier). A fine value is tier 3 with a publisher, else 2. Without one, a publishing
    /// app (`source-app-id`, `publisher-item-identifier`) is still tier 3, but a `source-domain` tells nothing:
    /// Apple's "first postback from a web ad, in a low postback data tier" carries one with a coarse value and two
    /// digits. Then a coarse value is tier 1, three or four digits tier 2 (only tiers 2 and 3 show more than two;
    /// the app set no fine value), and two digits without a value tier 0 or a tier-1 install whose app set no
    /// value in the first window: not told apart, -1. Later postbacks carry a coarse value at tiers 1-3 alike: -1,
    /// as are SKAdNetwork versions before the tiers (4.0) and a source identifier that is not 2-4 digits.
    static func tier(_ row: PostbackRow) -> Int8 {
        guard row.framework == .adattributionkit || row.version == .v4, row.window == 1 else { return -1 }
        if row.fineCell != nil { return row.publisher != nil ? 3 : 2 }
        if row.publisherKind == .app { return 3 }
        if row.coarseCell != nil { return 1 }
        if row.sourceDigits >= 3 { return 2 }
        return -1
    }

    /// The key's value when it came from `source` with the expected JSON type (`.true` stands for either
    /// Boolean); a value of another type flags `wrong-type` and is kept out of the row.
    @inline(__always)
    private func expect(
        _ key: PostbackKey, _ kind: JSONScanner.ValueKind, from source: PostbackFields.Source,
        in row: inout PostbackRow
    ) -> PostbackFields.Value? {
        guard let value = fields.value(key, from: source) else { return nil }
        let actual: JSONScanner.ValueKind =
            value.span.kind == JSONScanner.ValueKind.false ? JSONScanner.ValueKind.true : value.span.kind
        guard actual == kind else {
            row.flag(.wrongType)
            return nil
        }
        return value
    }

    /// The whole number in `range`, or nil after flagging `wrong-type` (not a whole number) or
    /// `out-of-range`.
    @discardableResult
    private func checkRange(
        _ value: PostbackFields.Value, _ range: ClosedRange<Int>, line: UnsafeBufferPointer<UInt8>,
        payload: UnsafeBufferPointer<UInt8>, in row: inout PostbackRow
    ) -> Int? {
        switch JSONInteger.read(bytes(of: value, line: line, payload: payload), value.span.start, value.span.end) {
        case .value(let number) where range.contains(number):
            return number
        case .notWhole:
            row.flag(.wrongType)
        case .value, .tooLarge:
            row.flag(.outOfRange)
        }
        return nil
    }

    private static func coarseValue(_ text: UnsafeBufferPointer<UInt8>) -> CoarseValue? {
        if equal(text, "low") { return .low }
        if equal(text, "medium") { return .medium }
        if equal(text, "high") { return .high }
        return nil
    }

    private static func conversionType(_ text: UnsafeBufferPointer<UInt8>) -> PostbackRow.ConversionType? {
        if equal(text, "download") { return .download }
        if equal(text, "redownload") { return .redownload }
        if equal(text, "re-engagement") || equal(text, "reengagement") { return .reengagement }
        return nil
    }

    private static func interaction(_ text: UnsafeBufferPointer<UInt8>) -> PostbackRow.Interaction? {
        if equal(text, "click") { return .click }
        if equal(text, "view") { return .view }
        return nil
    }

    @inline(__always)
    private static func equal(_ text: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        guard text.count == word.utf8CodeUnitCount else { return false }
        for index in 0..<text.count where text[index] != word.utf8Start[index] { return false }
        return true
    }
}
