// Calls Apple's frameworks. Compiled on iOS, and in CI on Linux against declarations that mirror Apple's
// signatures exactly (Tests/AppleAPIMirrorTests), so this code is type-checked on every run.
#if (canImport(StoreKit) && os(iOS)) || APPLE_API_MIRROR
#if canImport(StoreKit) && os(iOS)
import StoreKit
#endif
#if APPLE_API_MIRROR
import SkanRuntime
#endif
#if canImport(AdAttributionKit) && os(iOS)
import AdAttributionKit
#endif

/// Sends each update through SKAdNetwork and, where it exists (iOS 17.4), AdAttributionKit too: an app
/// whose ad networks use either framework should tell both. Uses the richest API the OS has:
/// iOS 16.1 fine + coarse + lock, iOS 15.4 fine with a completion handler, iOS 14.0 fine only.
public struct SystemPostbackClient: PostbackClient {
    public init() {}

    public func send(_ update: PostbackUpdate) async throws {
        try await sendToSKAdNetwork(update)
        #if (canImport(AdAttributionKit) && os(iOS)) || APPLE_API_MIRROR
        if #available(iOS 17.4, *) {
            try await Postback.updateConversionValue(
                update.fineValue, coarseConversionValue: update.coarseValue.adAttributionKit, lockPostback: update.lockWindow)
        }
        #endif
    }

    private func sendToSKAdNetwork(_ update: PostbackUpdate) async throws {
        if #available(iOS 16.1, *) {
            let coarse = update.coarseValue.skAdNetwork
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                SKAdNetwork.updatePostbackConversionValue(update.fineValue, coarseValue: coarse, lockWindow: update.lockWindow) { error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume() }
                }
            }
        } else if #available(iOS 15.4, *) {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                SKAdNetwork.updatePostbackConversionValue(update.fineValue) { error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume() }
                }
            }
        } else {
            SKAdNetwork.updateConversionValue(update.fineValue)
        }
    }
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
#endif
