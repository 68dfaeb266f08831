// Calls Apple's frameworks. Compiled on iOS (and Mac Catalyst), and in CI on Linux against declarations that
// mirror Apple's (Tests/AppleAPIMirrorTests), so this code is type-checked and exercised on every run. Every call
// sits inside an `#available` check at least as new as the API (PortabilityTests checks it against the mirror's
// attributes, which follow Apple's pages). References to symbols newer than the deployment target are weak, so
// an app whose floor predates AdAttributionKit still launches on older iOS (README, "Linking on older iOS").
#if (canImport(StoreKit) && os(iOS)) || APPLE_API_MIRROR
#if canImport(StoreKit) && os(iOS)
import StoreKit
#endif
#if canImport(AdAttributionKit) && os(iOS)
import AdAttributionKit
#endif
#if APPLE_API_MIRROR
public import SkanRuntime
#endif

/// Sends updates through AdAttributionKit (iOS 17.4, Mac Catalyst 17.4) and SKAdNetwork (iOS 14.0), each on its
/// own, with the richest API the OS has:
///
/// - AdAttributionKit, only where `Postback.isSupported` (iOS 18.0) allows: iOS 18.4 a re-engagement's update
///   names its conversion tag, with coarse value and conversion types; iOS 18.0 a `PostbackUpdate` with the
///   conversion type of the conversion (`[.install]` or `[.reengagement]`), which reaches the most recent
///   conversion of that type; iOS 17.4 fine + coarse + lock, which reaches the most recent conversion of any type
///   (re-engagements exist from iOS 17.5).
/// - SKAdNetwork, installs only: iOS 16.1 fine + coarse + lock; iOS 15.4 fine with a completion handler; iOS 14.0
///   fine; iOS 13 the install's registration (`registerAppForAdNetworkAttribution()`). iOS copies each of these into AdAttributionKit as `Postback.updateConversionValue(_:lockPostback:)`,
///   untagged and untyped, so it reaches the most recent conversion, a re-engagement once the app was opened from
///   one. `reach(of:through:)` says which conversion each send reaches; `PostbackCoordinator` keeps them apart.
public struct SystemPostbackClient: PostbackClient {
    /// The newest API this client may use; lowered only by tests, to run the older paths here.
    let newestAPI: APILevel

    /// A client that calls AdAttributionKit and SKAdNetwork through the system frameworks.
    public init() {
        self.init(newestAPI: .newest)
    }

    init(newestAPI: APILevel) {
        self.newestAPI = newestAPI
    }

    /// The frameworks this OS version and `conversion` allow, AdAttributionKit first.
    public func frameworks(for conversion: Conversion) -> [AttributionFramework] {
        var frameworks: [AttributionFramework] = []
        switch conversion {
        case .install:
            if #available(iOS 17.4, macCatalyst 17.4, *), newestAPI >= .iOS17Point4, postbacksSupported {
                frameworks.append(.adAttributionKit)
            }
            // From iOS 11.3, below the package's floor: before 14.0 as the install's registration alone.
            frameworks.append(.skAdNetwork)
        case .reengagement:
            // Re-engagement conversions exist from iOS 17.5; before 18.0 an update has no conversion type and
            // reaches the most recent conversion, which is the re-engagement while it is the latest open.
            if #available(iOS 17.5, macCatalyst 17.5, *), newestAPI >= .iOS17Point5, postbacksSupported {
                frameworks.append(.adAttributionKit)
            }
        }
        return frameworks
    }

    /// Sends `update` through `framework` with the newest API the OS has.
    public func send(
        _ update: ConversionValueUpdate, of conversion: Conversion, through framework: AttributionFramework
    )
        async throws
    {
        switch framework {
        case .adAttributionKit: try await sendToAdAttributionKit(update, of: conversion)
        case .skAdNetwork: try await sendToSKAdNetwork(update)
        }
    }

    /// Permanent for the errors that a resend cannot cure: SKAdNetwork's `invalidConversionValue` (this update)
    /// and AdAttributionKit's `invalidConversionTag` and `conversionTagNotSupported` (every update of the
    /// conversion); transient for the rest.
    public func refusal(_ error: any Error, from framework: AttributionFramework) -> PostbackRefusal {
        switch framework {
        case .adAttributionKit:
            #if (canImport(AdAttributionKit) && os(iOS)) || APPLE_API_MIRROR
            if #available(iOS 18.4, macCatalyst 18.4, *) {
                switch error as? AdAttributionKitError {
                case .invalidConversionTag, .conversionTagNotSupported: return .conversion
                default: return .transient
                }
            }
            #endif
        case .skAdNetwork:
            if #available(iOS 15.4, *) {
                if (error as? SKANError)?.code == .invalidConversionValue { return .update }
            }
        }
        return .transient
    }

    /// A tagged re-engagement update (iOS 18.4) and an install's update typed `install` (iOS 18.0) reach their
    /// own conversion; an untagged re-engagement update (iOS 18.0-18.3) the most recent re-engagement; SKAdNetwork's
    /// (copied into AdAttributionKit untyped) and AdAttributionKit's before iOS 18.0 (which has no conversion
    /// types) the most recent conversion of any type: re-engagements exist from iOS 17.5.
    public func reach(of conversion: Conversion, through framework: AttributionFramework) -> PostbackReach {
        guard framework == .adAttributionKit else { return .latestConversion }
        if #available(iOS 18.4, macCatalyst 18.4, *), newestAPI >= .iOS18Point4,
            case .reengagement(let open) = conversion, open.conversionTag != nil
        {
            return .itsConversion
        }
        if #available(iOS 18.0, macCatalyst 18.0, *), newestAPI >= .iOS18 {
            return conversion == .install ? .itsConversion : .latestReengagement
        }
        return .latestConversion
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
        } else if #available(iOS 14.0, *), newestAPI >= .iOS14 {
            SKAdNetwork.updateConversionValue(update.fineValue)
        } else {
            // iOS 13 has no conversion values; registering makes the install's postback (iOS 11.3-15.4). Later calls
            // change nothing, and from 14.0 the update above registers.
            SKAdNetwork.registerAppForAdNetworkAttribution()
        }
    }

    private func sendToAdAttributionKit(_ update: ConversionValueUpdate, of conversion: Conversion) async throws {
        #if (canImport(AdAttributionKit) && os(iOS)) || APPLE_API_MIRROR
        if #available(iOS 18.4, macCatalyst 18.4, *), newestAPI >= .iOS18Point4,
            case .reengagement(let open) = conversion, let tag = open.conversionTag
        {
            try await Postback.updateConversionValue(
                PostbackUpdate(
                    fineConversionValue: update.fineValue, lockPostback: update.lockWindow, conversionTag: tag,
                    coarseConversionValue: update.coarseValue.adAttributionKit, conversionTypes: [.reengagement]))
        } else if #available(iOS 18.0, macCatalyst 18.0, *), newestAPI >= .iOS18 {
            try await Postback.updateConversionValue(
                PostbackUpdate(
                    fineConversionValue: update.fineValue, lockPostback: update.lockWindow,
                    coarseConversionValue: update.coarseValue.adAttributionKit,
                    conversionTypes: conversion.conversionTypes))
        } else if #available(iOS 17.4, macCatalyst 17.4, *) {
            try await Postback.updateConversionValue(
                update.fineValue, coarseConversionValue: update.coarseValue.adAttributionKit,
                lockPostback: update.lockWindow)
        }
        #endif
    }

    /// `Postback.isSupported` from iOS 18.0 (false on devices where AdAttributionKit keeps no postbacks); iOS 17.x
    /// has no such property, and supports them. False where AdAttributionKit is not compiled in.
    private var postbacksSupported: Bool {
        #if (canImport(AdAttributionKit) && os(iOS)) || APPLE_API_MIRROR
        if #available(iOS 18.0, macCatalyst 18.0, *), newestAPI >= .iOS18 {
            return Postback.isSupported
        }
        return true
        #else
        return false
        #endif
    }
}

/// The OS versions that brought an API this client uses, in order.
enum APILevel: Int, Comparable, CaseIterable {
    case iOS11Point3, iOS14, iOS15Point4, iOS16Point1, iOS17Point4, iOS17Point5, iOS18, iOS18Point4

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

    #if (canImport(AdAttributionKit) && os(iOS)) || APPLE_API_MIRROR
    @available(iOS 17.4, macCatalyst 17.4, *)
    var adAttributionKit: CoarseConversionValue {
        switch self {
        case .low: .low
        case .medium: .medium
        case .high: .high
        }
    }
    #endif
}

#if (canImport(AdAttributionKit) && os(iOS)) || APPLE_API_MIRROR
extension Conversion {
    /// The AdAttributionKit conversion type of an iOS 18.0 update.
    @available(iOS 18.0, macCatalyst 18.0, *)
    var conversionTypes: [PostbackUpdate.ConversionType] {
        switch self {
        case .install: [.install]
        case .reengagement: [.reengagement]
        }
    }
}
#endif
#endif
