/// Apple's postback data tiers (crowd anonymity), as SKAdNetwork 4 and AdAttributionKit apply them: what a
/// postback of each window carries at each tier. Tier 0: only the first postback, with a two-digit source
/// identifier and no value; tier 1: a coarse value in every postback; tiers 2 and 3: the fine value in the first
/// postback (with a source identifier of two to four digits) and a coarse value in the others; tier 3 adds the
/// publisher (`source-app-id` or `source-domain`) and the country to the first. Later postbacks carry a
/// two-digit source identifier.
public enum PostbackDataTier: Int, CaseIterable, Sendable, Comparable {
    case zero = 0
    case one, two, three

    /// A part of a postback that a tier may carry, by its name in `skanc preview --format json`.
    public enum Carried: String, CaseIterable, Sendable {
        case fineValue = "fine_value"
        case coarseValue = "coarse_value"
        case sourceIdentifier = "source_identifier"
        case sourceAppID = "source_app_id"
        case sourceDomain = "source_domain"
        case countryCode = "country_code"
    }

    /// Whether the system sends `window`'s postback at this tier.
    public func sendsPostback(in window: ConversionWindow) -> Bool {
        self != .zero || window == .first
    }

    /// What `window`'s postback carries at this tier; empty when there is none.
    public func carries(in window: ConversionWindow) -> [Carried] {
        guard sendsPostback(in: window) else { return [] }
        switch (self, window) {
        case (.zero, _): return [.sourceIdentifier]
        case (.one, _): return [.coarseValue, .sourceIdentifier]
        case (.two, .first): return [.fineValue, .sourceIdentifier]
        case (.three, .first): return [.fineValue, .sourceIdentifier, .sourceAppID, .sourceDomain, .countryCode]
        case (.two, _), (.three, _): return [.coarseValue, .sourceIdentifier]
        }
    }

    /// How many digits the source identifier has in `window`'s postback: two, or two to four in the first
    /// postback at tiers 2 and 3; nil when there is no postback.
    public func sourceIdentifierDigits(in window: ConversionWindow) -> ClosedRange<Int>? {
        guard sendsPostback(in: window) else { return nil }
        return window == .first && self >= .two ? 2...4 : 2...2
    }

    /// Lower tiers first.
    public static func < (left: PostbackDataTier, right: PostbackDataTier) -> Bool { left.rawValue < right.rawValue }
}
