public import SkanVocabulary

/// A coarse conversion value as the runtime passes it to the system frameworks.
public enum CoarseConversion: String, Sendable, Codable, CaseIterable {
    case low, medium, high
}

/// One update the runtime asks the system to make: the values for the current window, and whether to
/// lock it. `window` is for the app's information; the system knows its own window. (Named apart from
/// AdAttributionKit's `PostbackUpdate`, so that a file importing both frameworks compiles.)
public struct ConversionValueUpdate: Sendable, Equatable, Codable {
    /// The window the values are for.
    public var window: ConversionWindow
    /// The fine value, 0...63.
    public var fineValue: Int
    /// The coarse value sent with the fine value (what tiers without a fine value see).
    public var coarseValue: CoarseConversion
    /// Whether to lock the window, so its postback is prepared at once.
    public var lockWindow: Bool

    /// An update of `window` to these values.
    public init(window: ConversionWindow, fineValue: Int, coarseValue: CoarseConversion, lockWindow: Bool) {
        self.window = window
        self.fineValue = fineValue
        self.coarseValue = coarseValue
        self.lockWindow = lockWindow
    }
}

/// The system frameworks that take conversion values. An app whose ad networks use either should tell both,
/// independently: one framework's failure neither blocks nor undoes the other (AdAttributionKit, "Understanding
/// AdAttributionKit and SKAdNetwork interoperability").
public enum AttributionFramework: String, Sendable, Codable, CaseIterable {
    /// AdAttributionKit (iOS 17.4 and later).
    case adAttributionKit
    /// StoreKit's SKAdNetwork (iOS 14.0 and later).
    case skAdNetwork

    /// The order an update is sent in. iOS copies every SKAdNetwork update into AdAttributionKit as
    /// `Postback.updateConversionValue(_:lockPostback:)`, with no coarse value; Apple does not say whether that copy
    /// keeps or clears the coarse value the postback holds. An update that does not lock goes to SKAdNetwork first,
    /// so AdAttributionKit's full update, with its coarse value, comes last and stands either way; one that locks
    /// goes to AdAttributionKit first, so the lock arrives with the coarse value and the copy after it meets a
    /// locked postback (sent second, the copy's lock would close the postback on no coarse value, or on the old one).
    public static func sendingOrder(locking: Bool) -> [AttributionFramework] {
        locking ? [.adAttributionKit, .skAdNetwork] : [.skAdNetwork, .adAttributionKit]
    }
}

/// What `ConversionValueUpdater` throws when a framework refused an update. The frameworks in
/// `accepted` have it and are not sent it again; the ones in `failures` are retried on the next call, except those
/// in `permanent`, whose refusal will not go away (an invalid value or conversion tag): they are reported this
/// once and not sent the same update again.
public struct ConversionValueUpdateError: Error {
    /// The update that was refused.
    public var update: ConversionValueUpdate
    /// Each refusing framework's own error.
    public var failures: [AttributionFramework: any Error]
    /// The frameworks that took the update in the same call.
    public var accepted: [AttributionFramework]
    /// How long each refusal in `failures` holds.
    public var refusals: [AttributionFramework: PostbackRefusal]

    /// The error for `update`, refused by the frameworks in `failures` (transiently unless `refusals` says
    /// otherwise) and taken by the ones in `accepted`.
    public init(
        update: ConversionValueUpdate, failures: [AttributionFramework: any Error], accepted: [AttributionFramework],
        refusals: [AttributionFramework: PostbackRefusal] = [:]
    ) {
        self.update = update
        self.failures = failures
        self.accepted = accepted
        self.refusals = refusals
    }

    /// The refusing frameworks that will not be sent this update again.
    public var permanent: [AttributionFramework] {
        AttributionFramework.allCases.filter { failures[$0] != nil && (refusals[$0] ?? .transient) != .transient }
    }
}
