// Calls Apple's frameworks. Compiled on iOS, and in CI on Linux against declarations that mirror Apple's
// (Tests/AppleAPIMirrorTests), so this code is type-checked and exercised on every run. Every call sits
// inside an `#available` check at least as new as the API (PortabilityTests checks it against the
// mirror's attributes, which follow Apple's pages).
#if (canImport(StoreKit) && os(iOS)) || APPLE_API_MIRROR
#if canImport(StoreKit) && os(iOS)
import StoreKit
#endif
#if canImport(AdAttributionKit) && os(iOS) && !targetEnvironment(macCatalyst)
import AdAttributionKit
#endif
#if APPLE_API_MIRROR
public import SkanRuntime
#endif

/// Sends updates through SKAdNetwork and, from iOS 17.4, AdAttributionKit, each on its own, with the
/// richest API the OS has:
///
/// - SKAdNetwork: iOS 16.1 fine + coarse + lock; iOS 15.4 fine with a completion handler; iOS 14.0 fine.
/// - AdAttributionKit: iOS 18.4 an update for one conversion tag; iOS 18.0 `PostbackUpdate` with the
///   conversion types `conversions` names (installs by default: without them iOS 18 applies an install
///   schema's values and locks to re-engagement conversions too); iOS 17.4 fine + coarse + lock, which
///   updates every conversion type.
public struct SystemPostbackClient: PostbackClient {
    /// The conversions an update is for.
    public enum Conversions: Sendable, Equatable {
        /// Install conversions (downloads and redownloads): SKAdNetwork, and AdAttributionKit with
        /// `conversionTypes: [.install]` from iOS 18.0.
        case installs
        /// AdAttributionKit re-engagement conversions only (iOS 18.0 and later; SKAdNetwork has none).
        case reengagements
        /// Every conversion type: SKAdNetwork, and AdAttributionKit without conversion types.
        case all
        /// The one AdAttributionKit conversion a re-engagement open's conversion tag names (iOS 18.4).
        case tagged(String)
    }

    /// The conversions this client's updates are for.
    public let conversions: Conversions
    /// The newest API this client may use; lowered only by tests, to run the older paths here.
    let newestAPI: APILevel

    /// A client for `conversions` (install conversions by default).
    public init(conversions: Conversions = .installs) {
        self.init(conversions: conversions, newestAPI: .newest)
    }

    init(conversions: Conversions, newestAPI: APILevel) {
        self.conversions = conversions
        self.newestAPI = newestAPI
    }

    /// The frameworks this OS version and `conversions` allow, SKAdNetwork first.
    public var frameworks: [AttributionFramework] {
        var frameworks: [AttributionFramework] = []
        switch conversions {
        case .installs, .all:
            if #available(iOS 14.0, *), newestAPI >= .iOS14 { frameworks.append(.skAdNetwork) }
            if #available(iOS 17.4, *), newestAPI >= .iOS17Point4, Self.hasAdAttributionKit {
                frameworks.append(.adAttributionKit)
            }
        case .reengagements:
            if #available(iOS 18.0, *), newestAPI >= .iOS18, Self.hasAdAttributionKit {
                frameworks.append(.adAttributionKit)
            }
        case .tagged:
            if #available(iOS 18.4, *), newestAPI >= .iOS18Point4, Self.hasAdAttributionKit {
                frameworks.append(.adAttributionKit)
            }
        }
        return frameworks
    }

    /// Sends `update` through `framework` with the newest API the OS has.
    public func send(_ update: ConversionValueUpdate, through framework: AttributionFramework) async throws {
        switch framework {
        case .skAdNetwork: try await sendToSKAdNetwork(update)
        case .adAttributionKit: try await sendToAdAttributionKit(update)
        }
    }

    private func sendToSKAdNetwork(_ update: ConversionValueUpdate) async throws {
        if #available(iOS 16.1, *), newestAPI >= .iOS16Point1 {
            let coarse = update.coarseValue.skAdNetwork
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                SKAdNetwork.updatePostbackConversionValue(
                    update.fineValue, coarseValue: coarse, lockWindow: update.lockWindow
                ) { error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume() }
                }
            }
        } else if #available(iOS 15.4, *), newestAPI >= .iOS15Point4 {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                SKAdNetwork.updatePostbackConversionValue(update.fineValue) { error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume() }
                }
            }
        } else if #available(iOS 14.0, *) {
            SKAdNetwork.updateConversionValue(update.fineValue)
        }
    }

    private func sendToAdAttributionKit(_ update: ConversionValueUpdate) async throws {
        #if (canImport(AdAttributionKit) && os(iOS) && !targetEnvironment(macCatalyst)) || APPLE_API_MIRROR
        if #available(iOS 18.4, *), newestAPI >= .iOS18Point4, case .tagged(let tag) = conversions {
            try await Postback.updateConversionValue(
                PostbackUpdate(
                    fineConversionValue: update.fineValue, lockPostback: update.lockWindow, conversionTag: tag))
        } else if #available(iOS 18.0, *), newestAPI >= .iOS18 {
            try await Postback.updateConversionValue(
                PostbackUpdate(
                    fineConversionValue: update.fineValue, lockPostback: update.lockWindow,
                    coarseConversionValue: update.coarseValue.adAttributionKit,
                    conversionTypes: conversions.conversionTypes))
        } else if #available(iOS 17.4, *) {
            try await Postback.updateConversionValue(
                update.fineValue, coarseConversionValue: update.coarseValue.adAttributionKit,
                lockPostback: update.lockWindow)
        }
        #endif
    }

    /// Whether AdAttributionKit is compiled in: not on Mac Catalyst, where Apple does not offer it.
    private static var hasAdAttributionKit: Bool {
        #if (canImport(AdAttributionKit) && os(iOS) && !targetEnvironment(macCatalyst)) || APPLE_API_MIRROR
        true
        #else
        false
        #endif
    }
}

/// The OS versions that brought an API this client uses, in order.
enum APILevel: Int, Comparable, CaseIterable {
    case iOS14, iOS15Point4, iOS16Point1, iOS17Point4, iOS18, iOS18Point4

    static let newest = APILevel.iOS18Point4

    static func < (left: APILevel, right: APILevel) -> Bool { left.rawValue < right.rawValue }
}

extension CoarseConversion {
    @available(iOS 16.1, *)
    var skAdNetwork: SKAdNetwork.CoarseConversionValue {
        switch self {
        case .low: .low
        case .medium: .medium
        case .high: .high
        }
    }

    #if (canImport(AdAttributionKit) && os(iOS) && !targetEnvironment(macCatalyst)) || APPLE_API_MIRROR
    @available(iOS 17.4, *)
    var adAttributionKit: CoarseConversionValue {
        switch self {
        case .low: .low
        case .medium: .medium
        case .high: .high
        }
    }
    #endif
}

#if (canImport(AdAttributionKit) && os(iOS) && !targetEnvironment(macCatalyst)) || APPLE_API_MIRROR
extension SystemPostbackClient.Conversions {
    /// The AdAttributionKit conversion types an iOS 18.0 update names; nil updates every type.
    @available(iOS 18.0, *)
    var conversionTypes: [PostbackUpdate.ConversionType]? {
        switch self {
        case .installs: [.install]
        case .reengagements, .tagged: [.reengagement]
        case .all: nil
        }
    }
}
#endif
#endif
