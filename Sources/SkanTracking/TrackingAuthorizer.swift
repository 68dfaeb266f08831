public import Foundation
// The status type lives in SkanVocabulary, which the Apple Ads client shares: apps that import this module see it
// as part of it.
@_exported public import SkanVocabulary

/// Asks for tracking authorization at the right moment and hands out identifiers only when they may be
/// used. It asks only while the app is active (a request during launch, before the app is active, returns
/// `notDetermined` without a prompt on recent iOS versions), so `requestIfNeeded()` first waits for the app
/// to become active; it asks at most once while a request is pending, and not at all once the user has
/// answered or the device restricts tracking. After the system's answer it reads the status again and
/// returns that: some iOS 17.4 releases answered `.denied` at once while the status stayed `notDetermined` and
/// no prompt had been seen, and such an answer is no answer (the next call asks again).
///
/// It is independent of `ConversionValueUpdater`: conversion values need no permission, and nothing here waits
/// on them or makes them wait.
///
/// ```swift
/// let tracking = TrackingAuthorizer()
/// let status = await tracking.requestIfNeeded(timeout: 10)   // after onboarding, say
/// let identifiers = await tracking.identifiers()               // advertising: nil unless authorized
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
    private let sleeper: any Sleeper
    private let vendorFallback: Bool
    /// The request in flight, so that concurrent callers share one prompt.
    private var pending: Task<TrackingAuthorizationStatus, Never>?

    /// An authorizer over `system` that waits for `activity` and times out with `sleeper`. With `vendorFallback`,
    /// `identifiers()` also gives the identifier for vendor, for measurement that does not need tracking
    /// permission. App extensions, which have no application state to wait for, use this one.
    public init(
        system: any TrackingSystem, activity: any AppActivity, sleeper: any Sleeper = TaskSleeper(),
        vendorFallback: Bool = false
    ) {
        self.system = system
        self.activity = activity
        self.sleeper = sleeper
        self.vendorFallback = vendorFallback
    }

    /// An authorizer over the system's App Tracking Transparency that waits for UIKit's application state (on
    /// iOS; elsewhere a system that restricts tracking, and an app that is always active).
    @available(iOSApplicationExtension, unavailable)
    public init(sleeper: any Sleeper = TaskSleeper(), vendorFallback: Bool = false) {
        self.init(
            system: defaultTrackingSystem(), activity: defaultAppActivity(), sleeper: sleeper,
            vendorFallback: vendorFallback)
    }

    /// The status now, without asking.
    public func status() async -> TrackingAuthorizationStatus {
        await system.currentStatus()
    }

    /// The status, after asking the user if nobody has: waits until the app is active, then requests, then reads
    /// the status again. A request the system answers with `notDetermined` (the app went inactive first) is made
    /// again on the next call.
    ///
    /// An app that waits for the answer before starting its ad SDKs passes a `timeout`: when the app has not
    /// become active within `timeout` seconds, the wait ends with the status now (`notDetermined`), and no
    /// prompt appears later. Cancelling the calling task ends the wait the same way. Once the system shows its
    /// prompt, the answer is awaited: the system does not take a prompt back.
    public func requestIfNeeded(timeout: Double? = nil) async -> TrackingAuthorizationStatus {
        let current = await system.currentStatus()
        guard current == .notDetermined else { return current }
        let task: Task<TrackingAuthorizationStatus, Never>
        if let pending {
            task = pending
        } else {
            task = Task { [system, activity] in
                await activity.untilActive()
                // Given up while waiting for the app: no prompt.
                if Task.isCancelled { return await system.currentStatus() }
                let answer = await system.requestAuthorization()
                let reread = await system.currentStatus()
                return reread == answer ? answer : reread
            }
            pending = task
        }
        let status = await Self.answer(of: task, timeout: timeout, sleeper: sleeper)
        if pending == task { pending = nil }
        return status
    }

    /// The task's answer; when `timeout` passes first, or the caller is cancelled, the task is cancelled (which
    /// ends its wait for the app) and its answer, the status now, is returned.
    private static func answer(
        of task: Task<TrackingAuthorizationStatus, Never>, timeout: Double?, sleeper: any Sleeper
    ) async -> TrackingAuthorizationStatus {
        await withTaskCancellationHandler {
            guard let timeout else { return await task.value }
            return await withTaskGroup(of: TrackingAuthorizationStatus?.self) { group in
                group.addTask { await task.value }
                group.addTask {
                    // A sleeper that throws was cancelled: the answer came first.
                    guard (try? await sleeper.sleep(seconds: timeout)) != nil else { return nil }
                    task.cancel()
                    return nil
                }
                var answer: TrackingAuthorizationStatus?
                for await result in group {
                    if let result {
                        answer = result
                        group.cancelAll()
                    }
                }
                return answer ?? .notDetermined
            }
        } onCancel: {
            task.cancel()
        }
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
@available(iOSApplicationExtension, unavailable)
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

/// An app that is always active (command-line tools, tests, app extensions).
public struct AlwaysActive: AppActivity {
    /// An always-active app.
    public init() {}
    /// Returns at once.
    public func untilActive() async {}
}
