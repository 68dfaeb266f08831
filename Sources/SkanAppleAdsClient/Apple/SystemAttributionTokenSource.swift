// Calls AdServices. Compiled on iOS, and in CI on Linux against the mirror (Tests/AppleAPIMirrorTests).
#if (canImport(AdServices) && os(iOS)) || APPLE_API_MIRROR
#if canImport(AdServices) && os(iOS)
import AdServices
#endif
#if APPLE_API_MIRROR
public import SkanAppleAdsClient
#endif

/// `AAAttribution.attributionToken()` (iOS 14.3 and later; earlier versions have no token).
public struct SystemAttributionTokenSource: AttributionTokenSource {
    /// Thrown before iOS 14.3.
    public struct Unavailable: Error, Sendable {}

    /// AdServices' tokens.
    public init() {}

    /// A fresh token from AdServices.
    public func attributionToken() async throws -> String {
        if #available(iOS 14.3, *) {
            return try AAAttribution.attributionToken()
        }
        throw Unavailable()
    }
}
#endif
