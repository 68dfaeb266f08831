import Foundation

/// An Apple Ads attribution record in one shape, whether it came from the AdServices attribution API
/// (iOS 14.3 and later) or from the retired iAd framework's `iad-` dictionary, so that years of both can be
/// read together. Identifiers are integers; the click date is ISO 8601 in UTC with seconds.
public struct AppleAdsAttribution: Sendable, Equatable, Codable {
    /// Where the record came from.
    public enum Source: String, Sendable, Codable, CaseIterable {
        /// The AdServices attribution API (`attribution`, `orgId`, `campaignId`, ...).
        case adServices = "adservices"
        /// The iAd framework's attribution details (`iad-attribution`, `iad-campaign-id`, ...).
        case iAd = "iad"
    }

    /// Where the record came from.
    public var source: Source
    /// Whether Apple Ads attributes the install: false for an organic install, and for an install from a campaign
    /// that targets by age or gender (AdServices, 2026).
    public var attributed: Bool
    /// The organization (`orgId`, `iad-org-id`).
    public var organization: Int?
    /// The campaign (`campaignId`, `iad-campaign-id`).
    public var campaign: Int?
    /// The ad group (`adGroupId`; iAd's `iad-adgroup-id`, or `iad-lineitem-id` in its 3.1 answers).
    public var adGroup: Int?
    /// The keyword (`keywordId`, `iad-keyword-id`).
    public var keyword: Int?
    /// The ad (`adId`; iAd's `iad-creativeset-id`, or `iad-creative-id`).
    public var ad: Int?
    /// When the ad was tapped, `2024-05-01T17:17:00Z` (`clickDate`, `iad-click-date`), when the answer has it.
    public var clickDate: String?
    /// The storefront's country or region (`countryOrRegion`, `iad-country-or-region`).
    public var countryOrRegion: String?
    /// `Download`, `Redownload` or `PreOrder` (`conversionType`, `iad-conversion-type`).
    public var conversionType: String?
    /// `Click` or `Impression`: what the install is attributed to (`claimType`; AdServices only).
    public var claimType: String?
    /// When the ad was seen, for an impression claim (`impressionDate`; AdServices only, when the answer has it).
    public var impressionDate: String?
    /// Where in the App Store the ad ran: `APPSTORE_SEARCH_RESULTS`, `APPSTORE_SEARCH_TAB`,
    /// `APPSTORE_TODAY_TAB`, `APPSTORE_PRODUCT_PAGES` (`supplyPlacement`; AdServices only).
    public var supplyPlacement: String?
    /// The creative set (`creativeSetId`; AdServices answers for devices before iOS 15.2, which has ads instead).
    public var creativeSet: Int?

    /// The identifier AdServices puts in every field of the sample record a development build gets instead of a
    /// real one (and the iAd framework's test data before it).
    public static let sampleIdentifier = 1_234_567_890

    /// Whether this is the sample record a development build gets (campaign and ad group both `sampleIdentifier`,
    /// as in AdServices' sample and the iAd framework's test data), not an attribution: never to be kept or
    /// counted as one.
    public var isSample: Bool {
        attributed && campaign == Self.sampleIdentifier && adGroup == Self.sampleIdentifier
    }

    /// A record; absent fields are nil.
    public init(
        source: Source, attributed: Bool, organization: Int? = nil, campaign: Int? = nil, adGroup: Int? = nil,
        keyword: Int? = nil, ad: Int? = nil, clickDate: String? = nil, countryOrRegion: String? = nil,
        conversionType: String? = nil, claimType: String? = nil, impressionDate: String? = nil,
        supplyPlacement: String? = nil, creativeSet: Int? = nil
    ) {
        self.source = source
        self.attributed = attributed
        self.organization = organization
        self.campaign = campaign
        self.adGroup = adGroup
        self.keyword = keyword
        self.ad = ad
        self.clickDate = clickDate
        self.countryOrRegion = countryOrRegion
        self.conversionType = conversionType
        self.claimType = claimType
        self.impressionDate = impressionDate
        self.supplyPlacement = supplyPlacement
        self.creativeSet = creativeSet
    }
}
