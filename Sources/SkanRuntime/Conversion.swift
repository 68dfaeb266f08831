public import Foundation

/// The conversion an updater's values are for. An install and each re-engagement are conversions of their own,
/// with their own windows and their own postbacks (AdAttributionKit, "Receiving ad attributions and postbacks").
public enum Conversion: Sendable, Hashable, Codable {
    /// The install (a download or a redownload): SKAdNetwork, and AdAttributionKit's install conversion; the
    /// windows count from the app's first launch.
    case install
    /// A re-engagement: the app was opened from a re-engagement ad (AdAttributionKit: re-engagement postbacks exist
    /// from iOS 17.5); the windows count from that open. The open is not proof of a conversion: the URL parameter is
    /// there even when rate limits or cooldowns made none (docs/Runtime.md).
    case reengagement(ReengagementOpen)
}

/// The app opened from an AdAttributionKit re-engagement ad: when, and the conversion tag the open's URL carries
/// (iOS 18.4 and later), which names this one re-engagement in later updates.
///
/// ```swift
/// func application(_ app: UIApplication, continue activity: NSUserActivity, ...) -> Bool {
///     if let url = activity.webpageURL, let open = ReengagementOpen(url: url, openedAt: Date()) {
///         reengagement = ConversionValueUpdater<Shop>(conversion: .reengagement(open))
///     }
///     ...
/// }
/// ```
public struct ReengagementOpen: Sendable, Hashable, Codable {
    /// The query item AdAttributionKit adds to the universal link of a re-engagement open; from iOS 18.4 its value
    /// is the conversion tag. The same string as `Postback.reengagementOpenURLParameter` (iOS 18.0,
    /// https://developer.apple.com/documentation/adattributionkit/postback/reengagementopenurlparameter; the tag:
    /// https://developer.apple.com/documentation/adattributionkit/conversion-tags), kept here so that the URL can be
    /// read where AdAttributionKit is not linked.
    public static let urlParameter = "AdAttributionKitReengagementOpen"

    /// When the app was opened from the ad: the re-engagement's windows count from here.
    public var openedAt: Date
    /// The conversion tag, or nil before iOS 18.4 (whose opens carry none): an untagged update reaches the most
    /// recent re-engagement conversion ("If you don't specify a conversion tag, AdAttributionKit updates the most
    /// recent conversion").
    public var conversionTag: String?

    /// An open at `openedAt`, tagged `conversionTag`.
    public init(openedAt: Date, conversionTag: String? = nil) {
        self.openedAt = openedAt
        self.conversionTag = conversionTag
    }

    /// The open `url` records, or nil when `url` is not a re-engagement open (it has no `urlParameter` query
    /// item). An empty value is no tag.
    public init?(url: URL, openedAt: Date) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let item = components.queryItems?.first(where: { $0.name == Self.urlParameter })
        else { return nil }
        self.init(openedAt: openedAt, conversionTag: item.value.flatMap { $0.isEmpty ? nil : $0 })
    }
}

extension Conversion {
    /// How long after the conversion's start the device may send the first conversion-value update; a conversion
    /// whose first update comes later gets no postback at all, so the updater sends none ("Receiving ad
    /// attributions and postbacks": "The device has 60 days to send the first conversion value update" after an
    /// install, "2 days" after a re-engagement).
    ///
    /// Apple counts an install's 60 days from the install; the runtime knows the first launch, which comes at or
    /// after it, so on a device that was installed long before its first launch iOS may give up earlier than the
    /// updater does (the updater then sends updates no postback carries, never the reverse). Developer Mode
    /// shortens the windows only, not this deadline.
    public var firstUpdateDeadline: TimeInterval {
        switch self {
        case .install: 60 * 24 * 3_600
        case .reengagement: 2 * 24 * 3_600
        }
    }
}
