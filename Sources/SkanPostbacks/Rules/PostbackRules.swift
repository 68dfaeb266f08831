import SkanCore

/// Which fields each kind of postback must carry and may carry, from Apple's pages:
///
/// - SKAdNetwork: "Identifying the parameters in install-validation postbacks" (StoreKit) gives each
///   parameter's versions: `ad-network-id`, `app-id`, `transaction-id` 1+; `campaign-id` 1-3;
///   `version`, `redownload`, `source-app-id`, `conversion-value` 2+; `fidelity-type` 2.2+; `did-win` 3+;
///   `source-identifier`, `source-domain`, `coarse-conversion-value`, `postback-sequence-index`,
///   `country-code` 4+ (`country-code` depends on the postback data tier and is outside the signature).
///   Parameters that depend on the privacy threshold or on the app (`source-app-id`, `source-domain`,
///   `country-code`, the values) are allowed, never required.
/// - AdAttributionKit: "Identifying the parameters in a postback" (AdAttributionKit): the stanza holds
///   `jws-string`, the values, `ad-interaction-type` and `country-code`; the identifiers are signed inside
///   the JWS payload.
///
/// Keys skanc does not know (`attribution-signature` among them) are neither required nor refused.
package enum PostbackRules {
    /// The SKAdNetwork versions, in order. A postback without `version` is 1.0: the key exists from 2.0.
    package enum SKAdNetworkVersion: Int, Comparable {
        case v1, v2, v2point1, v2point2, v3, v4

        /// The version a `version` string names, or nil for one Apple never used.
        init?(_ text: UnsafeBufferPointer<UInt8>) {
            guard text.count == 3, text[1] == UInt8(ascii: "."), text[0].isDigit, text[2].isDigit else { return nil }
            switch (text[0] &- UInt8(ascii: "0"), text[2] &- UInt8(ascii: "0")) {
            case (2, 0): self = .v2
            case (2, 1): self = .v2point1
            case (2, 2): self = .v2point2
            case (3, 0): self = .v3
            case (4, 0): self = .v4
            default: return nil
            }
        }

        package static func < (left: Self, right: Self) -> Bool { left.rawValue < right.rawValue }
    }

    /// The fields a SKAdNetwork postback of `version` must carry.
    package static func required(_ version: SKAdNetworkVersion) -> PostbackKeySet {
        switch version {
        case .v1: [.adNetworkID, .campaignID, .appID, .transactionID]
        case .v2, .v2point1: [.version, .adNetworkID, .campaignID, .appID, .transactionID, .redownload]
        case .v2point2: [.version, .adNetworkID, .campaignID, .appID, .transactionID, .redownload, .fidelityType]
        case .v3:
            [.version, .adNetworkID, .campaignID, .appID, .transactionID, .redownload, .fidelityType, .didWin]
        case .v4:
            [
                .version, .adNetworkID, .sourceIdentifier, .appID, .transactionID, .redownload, .fidelityType, .didWin,
                .postbackSequenceIndex,
            ]
        }
    }

    /// The fields a SKAdNetwork postback of `version` may carry: the required ones and those that depend on
    /// the privacy threshold or the app.
    package static func allowed(_ version: SKAdNetworkVersion) -> PostbackKeySet {
        switch version {
        case .v1: required(version).union([.attributionSignature])
        case .v2, .v2point1, .v2point2, .v3:
            required(version).union([.attributionSignature, .sourceAppID, .conversionValue])
        case .v4:
            required(version).union([
                .attributionSignature, .sourceAppID, .sourceDomain, .conversionValue, .coarseConversionValue,
                .countryCode,
            ])
        }
    }

    /// The fields an AdAttributionKit stanza must carry outside the JWS, and may.
    static let adAttributionKitStanzaRequired: PostbackKeySet = [.jwsString]
    package static let adAttributionKitStanzaAllowed: PostbackKeySet = [
        .jwsString, .conversionValue, .coarseConversionValue, .adInteractionType, .countryCode,
    ]
    /// The fields an AdAttributionKit JWS payload must carry, and may. They are signed: outside the payload
    /// they are not to be trusted.
    package static let adAttributionKitPayloadRequired: PostbackKeySet = [
        .postbackIdentifier, .adNetworkIdentifier, .sourceIdentifier, .advertisedItemIdentifier, .didWin,
        .postbackSequenceIndex, .conversionType,
    ]
    package static let adAttributionKitPayloadAllowed = adAttributionKitPayloadRequired.union([
        .publisherItemIdentifier, .marketplaceIdentifier, .impressionType,
    ])
    /// AdAttributionKit's `conversion-type` texts, each with the cell the row gives it. Apple's payloads write
    /// `re-engagement`; its "Receiving ad attributions and postbacks" page spells it `reengagement`: both are read,
    /// and written as `re-engagement`.
    package static let conversionTypes: [(text: String, cell: String)] = [
        ("download", "download"), ("redownload", "redownload"), ("re-engagement", "re-engagement"),
        ("reengagement", "re-engagement"),
    ]
    /// The values: outside the payload, where the app's updates put them.
    package static let values: PostbackKeySet = [.conversionValue, .coarseConversionValue]
    /// Where the publisher shows: an app's id or a web ad's domain, at the highest privacy tier only.
    static let publisher: PostbackKeySet = [.sourceAppID, .sourceDomain, .publisherItemIdentifier]

    /// Every set above, built once: a decoder holds one, so checking a line builds no set and reads no
    /// global.
    struct Sets {
        let required: [PostbackKeySet]
        let allowed: [PostbackKeySet]
        let stanzaAllowed = PostbackRules.adAttributionKitStanzaAllowed
        let payloadRequired = PostbackRules.adAttributionKitPayloadRequired
        let payloadAllowed = PostbackRules.adAttributionKitPayloadAllowed
        let values = PostbackRules.values

        init() {
            let versions: [SKAdNetworkVersion] = [.v1, .v2, .v2point1, .v2point2, .v3, .v4]
            required = versions.map(PostbackRules.required)
            allowed = versions.map(PostbackRules.allowed)
        }
    }
}
