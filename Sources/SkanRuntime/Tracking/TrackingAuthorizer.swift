public import Foundation

/// Asks for tracking authorization at the right moment and hands out identifiers only when they may be
/// used. It asks only while the app is active (a request during launch, before the app is active, returns
/// `notDetermined` without a prompt on recent iOS versions), so `requestIfNeeded()` first waits for the app
/// to become active; it asks at most once while a request is pending, and not at all once the user has
/// answered or the device restricts tracking. It is independent of `ConversionValueUpdater`: conversion
/// values need no permission, and nothing here waits on them or makes them wait.
///
/// ```swift
/// let tracking = TrackingAuthorizer()
/// let status = await tracking.requestIfNeeded()          // after onboarding, say
/// let identifiers = await tracking.identifiers()         // advertising: nil unless authorized
/// ```
public actor TrackingAuthorizer {
    /// The identifiers an app may use now.
    public struct Identifiers: Sendable, Equatable {
        /// The advertising identifier: only when tracking is authorized and the identifier is not zero.
        public var advertising: UUID?
        /// The identifier for vendor, when the authorizer was made with `vendorFallback` (nil otherwise).
        public var vendor: UUID?

        /// Identifiers; none by default.
        public init(advertising: UUID? = nil, vendor: UUID? = nil) {
            self.advertising = advertising
            self.vendor = vendor
        }
    }

    private let system: any TrackingSystem
    private let activity: any AppActivity
    private let vendorFallback: Bool
    /// The request in flight, so that concurrent callers share one prompt.
    private var pending: Task<TrackingAuthorizationStatus, Never>?

    /// An authorizer over `system` (Apple's App Tracking Transparency on iOS) that waits for `activity`
    /// (UIKit's on iOS). With `vendorFallback`, `identifiers()` also gives the identifier for vendor, for
    /// measurement that does not need tracking permission.
    public init(
        system: (any TrackingSystem)? = nil, activity: (any AppActivity)? = nil, vendorFallback: Bool = false
    ) {
        self.system = system ?? defaultTrackingSystem()
        self.activity = activity ?? defaultAppActivity()
        self.vendorFallback = vendorFallback
    }

    /// The status now, without asking.
    public func status() async -> TrackingAuthorizationStatus {
        await system.currentStatus()
    }

    /// The status, after asking the user if nobody has: waits until the app is active, then requests. A
    /// request the system answers with `notDetermined` (the app went inactive first) is made again on the
    /// next call.
    public func requestIfNeeded() async -> TrackingAuthorizationStatus {
        let current = await system.currentStatus()
        guard current == .notDetermined else { return current }
        if let pending { return await pending.value }
        let task = Task { [system, activity] in
            await activity.untilActive()
            return await system.requestAuthorization()
        }
        pending = task
        let status = await task.value
        pending = nil
        return status
    }

    /// The identifiers the app may use now. Never asks: call `requestIfNeeded()` first.
    public func identifiers() async -> Identifiers {
        var identifiers = Identifiers()
        if await system.currentStatus() == .authorized, let advertising = await system.advertisingIdentifier(),
            advertising != Self.zero
        {
            identifiers.advertising = advertising
        }
        if vendorFallback { identifiers.vendor = await system.vendorIdentifier() }
        return identifiers
    }

    /// The advertising identifier of a device that does not allow tracking.
    static let zero = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
}

/// Apple's App Tracking Transparency on iOS; elsewhere a system that restricts tracking.
func defaultTrackingSystem() -> any TrackingSystem {
    #if canImport(AppTrackingTransparency) && canImport(UIKit) && os(iOS)
    SystemTracking()
    #else
    UnavailableTracking()
    #endif
}

/// UIKit's application state on iOS; elsewhere an app that is always active.
func defaultAppActivity() -> any AppActivity {
    #if canImport(UIKit) && os(iOS)
    SystemAppActivity()
    #else
    AlwaysActive()
    #endif
}

/// Where App Tracking Transparency does not exist: tracking is restricted, no identifier.
public struct UnavailableTracking: TrackingSystem {
    /// A system without tracking.
    public init() {}
    /// Always `restricted`.
    public func currentStatus() async -> TrackingAuthorizationStatus { .restricted }
    /// Always `restricted`: there is nobody to ask.
    public func requestAuthorization() async -> TrackingAuthorizationStatus { .restricted }
    /// None.
    public func advertisingIdentifier() async -> UUID? { nil }
    /// None.
    public func vendorIdentifier() async -> UUID? { nil }
}

/// An app that is always active (command-line tools, tests).
public struct AlwaysActive: AppActivity {
    /// An always-active app.
    public init() {}
    /// Returns at once.
    public func untilActive() async {}
}
