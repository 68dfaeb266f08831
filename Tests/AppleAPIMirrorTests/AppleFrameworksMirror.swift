public import Foundation
import SkanCrypto

// Apple's SKAdNetwork (StoreKit) and AdAttributionKit declarations, mirrored exactly as Apple's pages give
// them (labels, defaults, `@Sendable`, `async throws`, availability), so that the runtime's calling code
// compiles here as it does against the iOS SDK. Each call is recorded in the test's `AppleMirrorWorld` instead of
// reaching a system. The `@available` attributes are the ones Apple lists; PortabilityTests reads them to
// check that every call in Sources/SkanRuntime/Apple sits behind an `#available` at least as new.
// Pages: https://developer.apple.com/documentation/storekit/skadnetwork and
// https://developer.apple.com/documentation/adattributionkit (one link per declaration below).

// MARK: - StoreKit

/// https://developer.apple.com/documentation/storekit/skadnetwork
@available(iOS 11.3, macCatalyst 13.1, *)
open class SKAdNetwork: NSObject {
    /// https://developer.apple.com/documentation/storekit/skadnetwork/registerappforadnetworkattribution()
    @available(iOS, introduced: 11.3, deprecated: 15.4)
    @available(macCatalyst, introduced: 13.1, deprecated: 15.4)
    open class func registerAppForAdNetworkAttribution() {
        AppleMirrorWorld.current.append("SKAdNetwork.registerAppForAdNetworkAttribution()")
    }

    /// https://developer.apple.com/documentation/storekit/skadnetwork/updateconversionvalue(_:)
    @available(iOS, introduced: 14.0, deprecated: 15.4)
    @available(macCatalyst, introduced: 14.0, deprecated: 15.4)
    open class func updateConversionValue(_ conversionValue: Int) {
        AppleMirrorWorld.current.append("SKAdNetwork.updateConversionValue(\(conversionValue))")
        AppleMirrorWorld.current.postbacks.skAdNetworkUpdate(fine: conversionValue, coarse: nil, lock: false)
    }

    /// https://developer.apple.com/documentation/storekit/skadnetwork/updatepostbackconversionvalue(_:completionhandler:)
    @available(iOS 15.4, macCatalyst 15.4, *)
    open class func updatePostbackConversionValue(
        _ conversionValue: Int, completionHandler completion: (@Sendable ((any Error)?) -> Void)? = nil
    ) {
        AppleMirrorWorld.current.append("SKAdNetwork.updatePostbackConversionValue(\(conversionValue))")
        mirrorSKAdNetworkUpdate(conversionValue, coarse: nil, lock: false, completion: completion)
    }

    /// https://developer.apple.com/documentation/storekit/skadnetwork/updatepostbackconversionvalue(_:coarsevalue:completionhandler:)
    @available(iOS 16.1, macCatalyst 16.1, *)
    open class func updatePostbackConversionValue(
        _ fineValue: Int, coarseValue: SKAdNetwork.CoarseConversionValue,
        completionHandler completion: (@Sendable ((any Error)?) -> Void)? = nil
    ) {
        AppleMirrorWorld.current.append(
            "SKAdNetwork.updatePostbackConversionValue(\(fineValue), coarseValue: \(coarseValue.rawValue))")
        mirrorSKAdNetworkUpdate(fineValue, coarse: coarseValue.rawValue, lock: false, completion: completion)
    }

    /// https://developer.apple.com/documentation/storekit/skadnetwork/updatepostbackconversionvalue(_:coarsevalue:lockwindow:completionhandler:)
    @available(iOS 16.1, macCatalyst 16.1, *)
    open class func updatePostbackConversionValue(
        _ fineValue: Int, coarseValue: SKAdNetwork.CoarseConversionValue, lockWindow: Bool,
        completionHandler completion: (@Sendable ((any Error)?) -> Void)? = nil
    ) {
        AppleMirrorWorld.current.append(
            "SKAdNetwork.updatePostbackConversionValue(\(fineValue), coarseValue: \(coarseValue.rawValue), lockWindow: \(lockWindow))"
        )
        mirrorSKAdNetworkUpdate(fineValue, coarse: coarseValue.rawValue, lock: lockWindow, completion: completion)
    }

    /// An update the system took changes the postbacks; a refused one changes nothing.
    private class func mirrorSKAdNetworkUpdate(
        _ fine: Int, coarse: String?, lock: Bool, completion: (@Sendable ((any Error)?) -> Void)?
    ) {
        let error = AppleMirrorWorld.current.takeSKAdNetworkError()
        if error == nil { AppleMirrorWorld.current.postbacks.skAdNetworkUpdate(fine: fine, coarse: coarse, lock: lock) }
        completion?(error)
    }

    /// https://developer.apple.com/documentation/storekit/skadnetwork/coarseconversionvalue
    @available(iOS 16.1, macCatalyst 16.1, *)
    public struct CoarseConversionValue: Hashable, Equatable, RawRepresentable, @unchecked Sendable {
        /// https://developer.apple.com/documentation/storekit/skadnetwork/coarseconversionvalue/rawvalue
        public let rawValue: String
        /// https://developer.apple.com/documentation/storekit/skadnetwork/coarseconversionvalue/init(rawvalue:)
        public init(rawValue: String) { self.rawValue = rawValue }
        /// https://developer.apple.com/documentation/storekit/skadnetwork/coarseconversionvalue/high
        public static let high = CoarseConversionValue(rawValue: "high")
        /// https://developer.apple.com/documentation/storekit/skadnetwork/coarseconversionvalue/medium
        public static let medium = CoarseConversionValue(rawValue: "medium")
        /// https://developer.apple.com/documentation/storekit/skadnetwork/coarseconversionvalue/low
        public static let low = CoarseConversionValue(rawValue: "low")
    }
}

/// https://developer.apple.com/documentation/storekit/skanerror-swift.struct (an `NS_ERROR_ENUM` in StoreKit's
/// SKANError.h, bridged as a struct whose `code` is `SKANError.Code`). The runtime reads `code` only.
@available(iOS 15.4, macCatalyst 15.4, *)
public struct SKANError: Error, Hashable, @unchecked Sendable {
    /// https://developer.apple.com/documentation/storekit/skanerror-swift.struct/code (raw values from
    /// SKANError.h; later SDKs add cases after `impressionTooShort`)
    public enum Code: Int, Sendable, Equatable {
        case impressionMissingRequiredValue = 0
        case unsupported = 1
        case adNetworkIdMissing = 2
        case mismatchedSourceAppId = 3
        case impressionNotFound = 4
        case invalidCampaignId = 5
        case invalidConversionValue = 6
        case invalidSourceAppId = 7
        case invalidAdvertisedAppId = 8
        case invalidVersion = 9
        case unknown = 10
        case impressionTooShort = 11
    }

    /// https://developer.apple.com/documentation/storekit/skanerror-swift.struct (the bridged error's `code`,
    /// which every `_BridgedStoredNSError` has)
    public let code: SKANError.Code

    /// https://developer.apple.com/documentation/storekit/skanerror-swift.struct (the bridged initializer
    /// `init(_:userInfo:)`, which every `_BridgedStoredNSError` has)
    public init(_ code: SKANError.Code, userInfo: [String: Any] = [:]) {
        self.code = code
    }
}

// MARK: - AdAttributionKit (iOS, iPadOS and, per the framework's page, Mac Catalyst 17.4)

/// https://developer.apple.com/documentation/adattributionkit/adattributionkiterror (the cases Apple lists; the
/// runtime matches two of them and treats every other as transient, so a `default` covers cases added later)
@available(iOS 17.4, macCatalyst 17.4, *)
public enum AdAttributionKitError: Error, Sendable, Hashable {
    /// https://developer.apple.com/documentation/adattributionkit/adattributionkiterror/conversiontagnotsupported
    @available(iOS 18.4, macCatalyst 18.4, *)
    case conversionTagNotSupported
    /// https://developer.apple.com/documentation/adattributionkit/adattributionkiterror/impressionexpired
    case impressionExpired
    /// https://developer.apple.com/documentation/adattributionkit/adattributionkiterror/invalidconversiontag
    @available(iOS 18.4, macCatalyst 18.4, *)
    case invalidConversionTag
    /// https://developer.apple.com/documentation/adattributionkit/adattributionkiterror/invalidimpressionjwscomponents
    @available(iOS 18.0, macCatalyst 18.0, *)
    case invalidImpressionJWSComponents
    /// https://developer.apple.com/documentation/adattributionkit/adattributionkiterror/invalidimpressionjwspayload
    case invalidImpressionJWSPayload
    /// https://developer.apple.com/documentation/adattributionkit/adattributionkiterror/missingattributionview
    case missingAttributionView
    /// https://developer.apple.com/documentation/adattributionkit/adattributionkiterror/unknown
    case unknown
}

/// https://developer.apple.com/documentation/adattributionkit/coarseconversionvalue
@available(iOS 17.4, macCatalyst 17.4, *)
public enum CoarseConversionValue: String, Sendable, Hashable, Codable {
    case high, low, medium
}

/// https://developer.apple.com/documentation/adattributionkit/postback
@available(iOS 17.4, macCatalyst 17.4, *)
public struct Postback {
    /// https://developer.apple.com/documentation/adattributionkit/postback/issupported ("Check this value to
    /// ensure the current device supports postbacks before calling methods on a `Postback`")
    @available(iOS 18.0, macCatalyst 18.0, *)
    public static var isSupported: Bool { AppleMirrorWorld.current.postbacksSupported }

    /// https://developer.apple.com/documentation/adattributionkit/postback/updateconversionvalue(_:coarseconversionvalue:lockpostback:)
    @available(iOS 17.4, macCatalyst 17.4, *)
    public static func updateConversionValue(
        _ fineConversionValue: Int, coarseConversionValue: CoarseConversionValue, lockPostback: Bool
    ) async throws {
        AppleMirrorWorld.current.append(
            "Postback.updateConversionValue(\(fineConversionValue), coarseConversionValue: \(coarseConversionValue), lockPostback: \(lockPostback))"
        )
        if let error = AppleMirrorWorld.current.takeAdAttributionKitError() { throw error }
        try AppleMirrorWorld.current.postbacks.adAttributionKitUpdate(
            fine: fineConversionValue, coarse: coarseConversionValue.rawValue, lock: lockPostback, tag: nil, types: nil)
    }

    /// https://developer.apple.com/documentation/adattributionkit/postback/updateconversionvalue(_:lockpostback:)
    @available(iOS 17.4, macCatalyst 17.4, *)
    public static func updateConversionValue(_ fineConversionValue: Int, lockPostback: Bool) async throws {
        AppleMirrorWorld.current.append(
            "Postback.updateConversionValue(\(fineConversionValue), lockPostback: \(lockPostback))")
        if let error = AppleMirrorWorld.current.takeAdAttributionKitError() { throw error }
        try AppleMirrorWorld.current.postbacks.adAttributionKitUpdate(
            fine: fineConversionValue, coarse: nil, lock: lockPostback, tag: nil, types: nil)
    }

    /// https://developer.apple.com/documentation/adattributionkit/postback/updateconversionvalue(_:)
    @available(iOS 18.0, macCatalyst 18.0, *)
    public static func updateConversionValue(_ postbackUpdate: PostbackUpdate) async throws {
        AppleMirrorWorld.current.append("Postback.updateConversionValue(\(postbackUpdate))")
        if let error = AppleMirrorWorld.current.takeAdAttributionKitError() { throw error }
        try AppleMirrorWorld.current.postbacks.adAttributionKitUpdate(
            fine: postbackUpdate.fineConversionValue, coarse: postbackUpdate.coarseConversionValue?.rawValue,
            lock: postbackUpdate.lockPostback, tag: postbackUpdate.storedConversionTag,
            types: postbackUpdate.conversionTypes?.map(\.rawValue))
    }

    /// https://developer.apple.com/documentation/adattributionkit/postback/reengagementopenurlparameter (from
    /// iOS 18.4 its value in the URL is the conversion tag: WWDC25 session 221, "What's new in AdAttributionKit";
    /// https://developer.apple.com/documentation/adattributionkit/conversion-tags)
    @available(iOS 18.0, macCatalyst 18.0, *)
    public static var reengagementOpenURLParameter: String { "AdAttributionKitReengagementOpen" }
}

/// https://developer.apple.com/documentation/adattributionkit/postbackupdate
@available(iOS 18.0, macCatalyst 18.0, *)
public struct PostbackUpdate: Sendable, CustomStringConvertible {
    /// https://developer.apple.com/documentation/adattributionkit/postbackupdate/conversiontype
    /// (Apple lists RawRepresentable without the raw type; the runtime never reads raw values.)
    public enum ConversionType: String, Sendable, Hashable {
        case install, reengagement
    }

    /// https://developer.apple.com/documentation/adattributionkit/postbackupdate/fineconversionvalue
    public let fineConversionValue: Int
    /// https://developer.apple.com/documentation/adattributionkit/postbackupdate/lockpostback
    public let lockPostback: Bool
    /// https://developer.apple.com/documentation/adattributionkit/postbackupdate/coarseconversionvalue
    public let coarseConversionValue: CoarseConversionValue?
    /// https://developer.apple.com/documentation/adattributionkit/postbackupdate/conversiontypes
    public let conversionTypes: [PostbackUpdate.ConversionType]?
    /// https://developer.apple.com/documentation/adattributionkit/postbackupdate/conversiontag
    @available(iOS 18.4, macCatalyst 18.4, *)
    public var conversionTag: String? { storedConversionTag }
    let storedConversionTag: String?

    /// https://developer.apple.com/documentation/adattributionkit/postbackupdate/init(fineconversionvalue:lockpostback:coarseconversionvalue:conversiontypes:)
    public init(
        fineConversionValue: Int, lockPostback: Bool, coarseConversionValue: CoarseConversionValue? = nil,
        conversionTypes: [PostbackUpdate.ConversionType]? = nil
    ) {
        self.fineConversionValue = fineConversionValue
        self.lockPostback = lockPostback
        self.coarseConversionValue = coarseConversionValue
        self.conversionTypes = conversionTypes
        storedConversionTag = nil
    }

    /// https://developer.apple.com/documentation/adattributionkit/postbackupdate/init(fineconversionvalue:lockpostback:conversiontag:coarseconversionvalue:conversiontypes:)
    @available(iOS 18.4, macCatalyst 18.4, *)
    public init(
        fineConversionValue: Int, lockPostback: Bool, conversionTag: String,
        coarseConversionValue: CoarseConversionValue? = nil, conversionTypes: [PostbackUpdate.ConversionType]? = nil
    ) {
        self.fineConversionValue = fineConversionValue
        self.lockPostback = lockPostback
        self.coarseConversionValue = coarseConversionValue
        self.conversionTypes = conversionTypes
        storedConversionTag = conversionTag
    }

    /// How the call log shows the update.
    public var description: String {
        var parts = ["fineConversionValue: \(fineConversionValue)", "lockPostback: \(lockPostback)"]
        if let storedConversionTag { parts.append("conversionTag: \(storedConversionTag)") }
        if let coarseConversionValue { parts.append("coarseConversionValue: \(coarseConversionValue)") }
        if let conversionTypes { parts.append("conversionTypes: \(conversionTypes.map { ".\($0)" })") }
        return "PostbackUpdate(\(parts.joined(separator: ", ")))"
    }
}

// MARK: - App Tracking Transparency, AdSupport, UIKit, AdServices

/// https://developer.apple.com/documentation/apptrackingtransparency/attrackingmanager
@available(iOS 14.0, *)
open class ATTrackingManager: NSObject {
    /// https://developer.apple.com/documentation/apptrackingtransparency/attrackingmanager/authorizationstatus
    @available(iOS 14.0, *)
    public enum AuthorizationStatus: UInt, @unchecked Sendable {
        case notDetermined = 0
        case restricted = 1
        case denied = 2
        case authorized = 3
    }

    /// https://developer.apple.com/documentation/apptrackingtransparency/attrackingmanager/trackingauthorizationstatus
    @available(iOS 14.0, *)
    open class var trackingAuthorizationStatus: ATTrackingManager.AuthorizationStatus {
        AppleMirrorWorld.current.trackingAuthorization.status
    }

    /// https://developer.apple.com/documentation/apptrackingtransparency/attrackingmanager/requesttrackingauthorization(completionhandler:)
    @available(iOS 14.0, *)
    open class func requestTrackingAuthorization(
        completionHandler completion: @escaping @Sendable (ATTrackingManager.AuthorizationStatus) -> Void
    ) {
        AppleMirrorWorld.current.append(
            "ATTrackingManager.requestTrackingAuthorization"
                + (AppleMirrorWorld.isOnMainQueue ? " on the main queue" : ""))
        completion(AppleMirrorWorld.current.answerTrackingRequest())
    }
}

/// https://developer.apple.com/documentation/adsupport/asidentifiermanager
@available(iOS 6.0, *)
open class ASIdentifierManager: NSObject, @unchecked Sendable {
    private static let instance = ASIdentifierManager()

    /// https://developer.apple.com/documentation/adsupport/asidentifiermanager/shared()
    @available(iOS 6.0, *)
    open class func shared() -> ASIdentifierManager { instance }

    /// https://developer.apple.com/documentation/adsupport/asidentifiermanager/advertisingidentifier
    @available(iOS 6.0, *)
    open var advertisingIdentifier: UUID { AppleMirrorWorld.current.advertisingIdentifier }

    /// https://developer.apple.com/documentation/adsupport/asidentifiermanager/isadvertisingtrackingenabled
    @available(iOS, introduced: 6.0, deprecated: 14.0)
    open var isAdvertisingTrackingEnabled: Bool { AppleMirrorWorld.current.advertisingTrackingEnabled }
}

/// https://developer.apple.com/documentation/uikit/uidevice
@available(iOS 2.0, *)
@MainActor open class UIDevice: NSObject {
    /// https://developer.apple.com/documentation/uikit/uidevice/current
    open class var current: UIDevice { UIDevice() }
    /// https://developer.apple.com/documentation/uikit/uidevice/identifierforvendor
    @available(iOS 6.0, *)
    open var identifierForVendor: UUID? { UUID(uuidString: "00000000-0000-4000-8000-00000000ABCD") }
}

/// https://developer.apple.com/documentation/uikit/uiapplication
@available(iOS 2.0, *)
@MainActor open class UIApplication: NSObject {
    /// https://developer.apple.com/documentation/uikit/uiapplication/state
    public enum State: Int, Sendable {
        case active = 0
        case inactive = 1
        case background = 2
    }

    /// https://developer.apple.com/documentation/uikit/uiapplication/shared
    @available(iOSApplicationExtension, unavailable)
    public static let shared = UIApplication()
    /// https://developer.apple.com/documentation/uikit/uiapplication/applicationstate
    open var applicationState: UIApplication.State {
        stateReads += 1
        let waiting = stateReadWaiters
        stateReadWaiters = []
        for waiter in waiting { waiter.resume() }
        return mirroredState
    }
    /// https://developer.apple.com/documentation/uikit/uiapplication/didbecomeactivenotification
    public static let didBecomeActiveNotification = NSNotification.Name("UIApplicationDidBecomeActiveNotification")

    /// The state UIKit would report; tests set it.
    var mirroredState = UIApplication.State.inactive
    /// How often the state was read, and who waits for the next read.
    private(set) var stateReads = 0
    private var stateReadWaiters: [CheckedContinuation<Void, Never>] = []

    /// Returns once the state has been read more than `count` times: a test waits here for the code under test
    /// to have looked (and, in `SystemAppActivity`, to have added its observer first) instead of sleeping.
    func mirrorUntilStateRead(moreThan count: Int) async {
        guard stateReads <= count else { return }
        await withCheckedContinuation { stateReadWaiters.append($0) }
        await mirrorUntilStateRead(moreThan: count)
    }

    /// What UIKit does when the app becomes active: the state changes, then the notification is posted.
    func mirrorBecomeActive() {
        mirroredState = .active
        NotificationCenter.default.post(name: Self.didBecomeActiveNotification, object: nil)
    }
}

/// https://developer.apple.com/documentation/adservices/aaattribution
@available(iOS 14.3, *)
open class AAAttribution: NSObject {
    /// https://developer.apple.com/documentation/adservices/aaattribution/attributiontoken()
    @available(iOS 14.3, *)
    open class func attributionToken() throws -> String {
        AppleMirrorWorld.current.append("AAAttribution.attributionToken")
        guard let token = AppleMirrorWorld.current.attributionToken else {
            throw NSError(domain: "com.apple.AdServices", code: 1)
        }
        return token
    }
}

// MARK: - CryptoKit

/// https://developer.apple.com/documentation/cryptokit/p256
@available(iOS 13.0, *)
public enum P256 {
    /// https://developer.apple.com/documentation/cryptokit/p256/signing
    @available(iOS 13.0, *)
    public enum Signing {
        /// https://developer.apple.com/documentation/cryptokit/p256/signing/publickey
        @available(iOS 13.0, *)
        public struct PublicKey {
            /// The mirror verifies for real, with SkanCrypto, so a test sees CryptoKit's answer.
            let key: ECDSAPublicKey

            /// https://developer.apple.com/documentation/cryptokit/p256/signing/publickey/init(x963representation:)
            @available(iOS 13.0, *)
            public init<Bytes: ContiguousBytes>(x963Representation: Bytes) throws {
                AppleMirrorWorld.current.append("P256.Signing.PublicKey.init(x963Representation:)")
                let point = x963Representation.withUnsafeBytes { [UInt8]($0) }
                // SubjectPublicKeyInfo for P-256 (RFC 5480) around the point.
                let prefix: [UInt8] = [
                    0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A,
                    0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
                ]
                guard point.count == 65, let key = ECDSAPublicKey(der: prefix + point) else {
                    throw NSError(domain: "CryptoKit.CryptoKitError", code: 1)
                }
                self.key = key
            }

            /// https://developer.apple.com/documentation/cryptokit/p256/signing/publickey (Verifying signatures:
            /// `isValidSignature(_:for:)`, over data, SHA-256)
            @available(iOS 13.0, *)
            public func isValidSignature<D: DataProtocol>(_ signature: ECDSASignature, for data: D) -> Bool {
                AppleMirrorWorld.current.append("P256.Signing.PublicKey.isValidSignature(_:for:)")
                return key.isValidSignature(raw: signature.raw, for: [UInt8](data))
            }
        }

        /// https://developer.apple.com/documentation/cryptokit/p256/signing/ecdsasignature
        @available(iOS 13.0, *)
        public struct ECDSASignature {
            let raw: [UInt8]

            /// https://developer.apple.com/documentation/cryptokit/p256/signing/ecdsasignature/init(rawrepresentation:)
            @available(iOS 13.0, *)
            public init<D: DataProtocol>(rawRepresentation: D) throws {
                guard rawRepresentation.count == 64 else { throw NSError(domain: "CryptoKit.CryptoKitError", code: 2) }
                raw = [UInt8](rawRepresentation)
            }
        }
    }
}
