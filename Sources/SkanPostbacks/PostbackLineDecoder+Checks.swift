import SkanCompiler

extension PostbackLineDecoder {
    /// The bytes a cell's span lies in.
    @inline(__always)
    func bytes(of value: PostbackFields.Value, line: UnsafeBufferPointer<UInt8>, payload: UnsafeBufferPointer<UInt8>)
        -> UnsafeBufferPointer<UInt8>
    {
        value.source == .line ? line : payload
    }

    /// Fills the row's columns and applies the type, range, Apple and schema checks, in status order.
    func check(_ line: UnsafeBufferPointer<UInt8>, payload: UnsafeBufferPointer<UInt8>, into row: inout PostbackRow) {
        do {
            let aak = row.kind == .adattributionkit
            row.version = expect(.version, .string, in: &row)
            row.transactionID = expect(aak ? .postbackIdentifier : .transactionID, .string, in: &row)
            row.adNetworkID = expect(aak ? .adNetworkIdentifier : .adNetworkID, .string, in: &row)
            if let source = expect(.sourceIdentifier, .string, in: &row) {
                row.sourceID = source
                row.sourceDigits = source.span.end - source.span.start
            } else {
                row.sourceID = expect(.campaignID, .number, in: &row)
            }
            row.appID = expect(aak ? .advertisedItemIdentifier : .appID, .number, in: &row)
            row.didWin = expect(.didWin, .true, in: &row)
            row.redownload = aak ? expect(.conversionType, .string, in: &row) : expect(.redownload, .true, in: &row)
            row.fidelityType =
                aak ? expect(.adInteractionType, .string, in: &row) : expect(.fidelityType, .number, in: &row)
            row.countryCode = expect(.countryCode, .string, in: &row)
            if let fidelity = row.fidelityType, !aak {
                checkRange(fidelity, 0...1, line: line, payload: payload, in: &row)
            }
            if let index = expect(.postbackSequenceIndex, .number, in: &row) {
                row.sequenceIndex = index
                if let value = checkRange(index, 0...2, line: line, payload: payload, in: &row) {
                    row.window = value + 1
                }
            }
            if let fine = expect(.conversionValue, .number, in: &row) {
                row.fineCell = fine
                if let value = checkRange(fine, 0...63, line: line, payload: payload, in: &row) {
                    row.fineValue = value
                }
            }
            if let coarse = expect(.coarseConversionValue, .string, in: &row) {
                row.coarseCell = coarse
                row.coarseValue = coarseValue(coarse, line: line, payload: payload)
            }
        }
        if row.fineCell != nil, row.coarseCell != nil { row.flag(.fineAndCoarse) }
        if row.fineValue != nil, row.window != 1 { row.flag(.fineNotFirst) }
        if row.coarseCell != nil, row.coarseValue == nil { row.flag(.unknownCoarse) }
        if let fine = row.fineValue {
            row.fineIsValid = validFine[fine]
            if !row.fineIsValid { row.flag(.invalidFine) }
        }
    }

    /// The key's value when it has the expected JSON type (`.true` stands for either Boolean); a value of
    /// another type flags `wrong-type` and is kept out of the row.
    @inline(__always)
    private func expect(_ key: PostbackKey, _ kind: JSONScanner.ValueKind, in row: inout PostbackRow) -> PostbackFields
        .Value?
    {
        guard let value = fields[key] else { return nil }
        let actual: JSONScanner.ValueKind =
            value.span.kind == JSONScanner.ValueKind.false ? JSONScanner.ValueKind.true : value.span.kind
        guard actual == kind else {
            row.flag(.wrongType)
            return nil
        }
        return value
    }

    /// The whole number in `range`, or nil after flagging `wrong-type` (a fraction) or `out-of-range`.
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

    private func coarseValue(
        _ value: PostbackFields.Value, line: UnsafeBufferPointer<UInt8>, payload: UnsafeBufferPointer<UInt8>
    ) -> CoarseValue? {
        guard !value.span.hasEscapes else { return nil }
        let bytes = self.bytes(of: value, line: line, payload: payload)
        let text = UnsafeBufferPointer(rebasing: bytes[value.span.start..<value.span.end])
        if Self.equal(text, "low") { return .low }
        if Self.equal(text, "medium") { return .medium }
        if Self.equal(text, "high") { return .high }
        return nil
    }

    @inline(__always)
    private static func equal(_ text: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        guard text.count == word.utf8CodeUnitCount else { return false }
        for index in 0..<text.count where text[index] != word.utf8Start[index] { return false }
        return true
    }
}
