/// The keys of a postback that skanc reads. Anything else in a postback is skipped (but still checked to be
/// valid JSON). SKAdNetwork keys sit at the top level; AdAttributionKit identifiers sit in the JWS payload.
enum PostbackKey: Int, CaseIterable {
    // SKAdNetwork, and the values of AdAttributionKit stanzas
    case version, adNetworkID, campaignID, sourceIdentifier, appID, transactionID, redownload, fidelityType
    case didWin, postbackSequenceIndex, coarseConversionValue, conversionValue, countryCode
    case jwsString, adInteractionType
    // AdAttributionKit JWS payload
    case postbackIdentifier, adNetworkIdentifier, advertisedItemIdentifier, conversionType

    var name: StaticString {
        switch self {
        case .version: "version"
        case .adNetworkID: "ad-network-id"
        case .campaignID: "campaign-id"
        case .sourceIdentifier: "source-identifier"
        case .appID: "app-id"
        case .transactionID: "transaction-id"
        case .redownload: "redownload"
        case .fidelityType: "fidelity-type"
        case .didWin: "did-win"
        case .postbackSequenceIndex: "postback-sequence-index"
        case .coarseConversionValue: "coarse-conversion-value"
        case .conversionValue: "conversion-value"
        case .countryCode: "country-code"
        case .jwsString: "jws-string"
        case .adInteractionType: "ad-interaction-type"
        case .postbackIdentifier: "postback-identifier"
        case .adNetworkIdentifier: "ad-network-identifier"
        case .advertisedItemIdentifier: "advertised-item-identifier"
        case .conversionType: "conversion-type"
        }
    }

    /// A key's bytes as 8-byte words at offsets 0, 8, 16, ... and a last word ending with the key
    /// (overlapping the one before), so a compare takes a few word loads. Keys under 8 bytes compare bytewise.
    struct Pattern {
        let key: PostbackKey
        let words: [(offset: Int, word: UInt64)]
    }

    /// Patterns by key length.
    static let byLength: [[Pattern]] = {
        var table = Array(repeating: [Pattern](), count: 32)
        for key in PostbackKey.allCases {
            let bytes = Array(UnsafeBufferPointer(start: key.name.utf8Start, count: key.name.utf8CodeUnitCount))
            var words: [(Int, UInt64)] = []
            if bytes.count >= 8 {
                var offsets = Array(stride(from: 0, to: bytes.count - 7, by: 8))
                if offsets.last != bytes.count - 8 { offsets.append(bytes.count - 8) }
                words = offsets.map { offset in
                    (offset, bytes[offset..<(offset + 8)].enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) })
                }
            }
            table[bytes.count].append(Pattern(key: key, words: words))
        }
        return table
    }()

    /// The key spelled by `bytes[start..<end]` (an unescaped JSON string's contents), if skanc reads it.
    /// `table` is `byLength`, passed in so the hot loop does not check a global's initialisation each time.
    @inline(__always)
    static func match(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, in table: [[Pattern]]) -> PostbackKey? {
        let length = end - start
        guard length < table.count, let base = bytes.baseAddress else { return nil }
        for pattern in table[length] {
            if length >= 8 {
                var same = true
                for (offset, word) in pattern.words
                where UnsafeRawPointer(base + start + offset).loadUnaligned(as: UInt64.self) != word.littleEndian {
                    same = false
                    break
                }
                if same { return pattern.key }
            } else {
                let name = pattern.key.name.utf8Start
                var same = true
                for offset in 0..<length where base[start + offset] != name[offset] {
                    same = false
                    break
                }
                if same { return pattern.key }
            }
        }
        return nil
    }
}
