import Foundation

// Apple's SKAdNetwork (StoreKit) and AdAttributionKit declarations, with exactly the signatures the SDK
// publishes (see domain.md), so that the runtime's calling code is type-checked on Linux. Each call is
// recorded in `AppleCallLog` instead of reaching a system.

/// The calls made to the mirrored frameworks, in order.
final class AppleCallLog: @unchecked Sendable {
    static let shared = AppleCallLog()
    private let lock = NSLock()
    private var entries: [String] = []
    /// When set, the next SKAdNetwork completion handler receives this error.
    var nextSKAdNetworkError: (any Error)?

    func append(_ entry: String) { lock.withLock { entries.append(entry) } }
    func takeAll() -> [String] { lock.withLock { defer { entries = [] }; return entries } }
    func takeError() -> (any Error)? { lock.withLock { defer { nextSKAdNetworkError = nil }; return nextSKAdNetworkError } }
}

@available(iOS 14.0, *)
open class SKAdNetwork: NSObject {
    @available(iOS, introduced: 14.0, deprecated: 15.4)
    open class func updateConversionValue(_ conversionValue: Int) {
        AppleCallLog.shared.append("SKAdNetwork.updateConversionValue(\(conversionValue))")
    }

    @available(iOS 15.4, *)
    open class func updatePostbackConversionValue(_ conversionValue: Int, completionHandler: (((any Error)?) -> Void)? = nil) {
        AppleCallLog.shared.append("SKAdNetwork.updatePostbackConversionValue(\(conversionValue))")
        completionHandler?(AppleCallLog.shared.takeError())
    }

    @available(iOS 16.1, *)
    open class func updatePostbackConversionValue(
        _ fineValue: Int, coarseValue: SKAdNetwork.CoarseConversionValue, completionHandler: (((any Error)?) -> Void)? = nil
    ) {
        AppleCallLog.shared.append("SKAdNetwork.updatePostbackConversionValue(\(fineValue), coarseValue: \(coarseValue.rawValue))")
        completionHandler?(AppleCallLog.shared.takeError())
    }

    @available(iOS 16.1, *)
    open class func updatePostbackConversionValue(
        _ fineValue: Int, coarseValue: SKAdNetwork.CoarseConversionValue, lockWindow: Bool,
        completionHandler: (((any Error)?) -> Void)? = nil
    ) {
        AppleCallLog.shared.append("SKAdNetwork.updatePostbackConversionValue(\(fineValue), coarseValue: \(coarseValue.rawValue), lockWindow: \(lockWindow))")
        completionHandler?(AppleCallLog.shared.takeError())
    }

    @available(iOS 16.1, *)
    public struct CoarseConversionValue: Hashable, Equatable, RawRepresentable, @unchecked Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let high = CoarseConversionValue(rawValue: "high")
        public static let medium = CoarseConversionValue(rawValue: "medium")
        public static let low = CoarseConversionValue(rawValue: "low")
    }
}

// AdAttributionKit
@available(iOS 17.4, *)
public enum CoarseConversionValue: Sendable, Hashable {
    case low, medium, high
}

@available(iOS 17.4, *)
public struct Postback: Sendable {
    public static func updateConversionValue(
        _ fineConversionValue: Int, coarseConversionValue: CoarseConversionValue, lockPostback: Bool = false
    ) async throws {
        AppleCallLog.shared.append("Postback.updateConversionValue(\(fineConversionValue), coarseConversionValue: \(coarseConversionValue), lockPostback: \(lockPostback))")
    }

    public static func updateConversionValue(_ fineConversionValue: Int, lockPostback: Bool = false) async throws {
        AppleCallLog.shared.append("Postback.updateConversionValue(\(fineConversionValue), lockPostback: \(lockPostback))")
    }
}
