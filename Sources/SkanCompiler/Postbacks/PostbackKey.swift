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

    /// Keys by length, so matching a key costs one length check and a few byte compares.
    static let byLength: [[PostbackKey]] = {
        var table = Array(repeating: [PostbackKey](), count: 32)
        for key in PostbackKey.allCases { table[key.name.utf8CodeUnitCount].append(key) }
        return table
    }()

    /// The key spelled by `bytes[start..<end]` (an unescaped JSON string's contents), if skanc reads it.
    @inline(__always)
    static func match(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> PostbackKey? {
        let length = end - start
        guard length < byLength.count else { return nil }
        for key in byLength[length] {
            let name = key.name.utf8Start
            var same = true
            for offset in 0..<length where bytes[start + offset] != name[offset] {
                same = false
                break
            }
            if same { return key }
        }
        return nil
    }
}
