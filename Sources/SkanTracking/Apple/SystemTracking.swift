// Calls App Tracking Transparency, AdSupport and UIKit. Compiled on iOS, and in CI on Linux against
// declarations that mirror Apple's (Tests/AppleAPIMirrorTests), as SystemPostbackClient is.
#if (canImport(AppTrackingTransparency) && canImport(UIKit) && os(iOS)) || APPLE_API_MIRROR
public import Foundation
#if canImport(AppTrackingTransparency) && canImport(UIKit) && os(iOS)
import AdSupport
import AppTrackingTransparency
import UIKit
#endif
#if APPLE_API_MIRROR
public import SkanVocabulary
public import SkanTracking
#endif

/// App Tracking Transparency (iOS 14 and later) and the advertising and vendor identifiers. Before iOS 14
/// there is no prompt: the status is `authorized` unless the user turned Limit Ad Tracking on
/// (`isAdvertisingTrackingEnabled` false), which is `denied`; such a device gives a zero identifier, which
/// `TrackingAuthorizer` treats as none.
public struct SystemTracking: TrackingSystem {
    /// Whether App Tracking Transparency may be called; false only in tests, to run the path before iOS 14 here.
    let hasTrackingTransparency: Bool

    /// The system's tracking authorization.
    public init() {
        self.init(hasTrackingTransparency: true)
    }

    init(hasTrackingTransparency: Bool) {
        self.hasTrackingTransparency = hasTrackingTransparency
    }

    /// `ATTrackingManager.trackingAuthorizationStatus`; before iOS 14, Limit Ad Tracking.
    public func currentStatus() async -> TrackingAuthorizationStatus {
        if #available(iOS 14.0, *), hasTrackingTransparency {
            return TrackingAuthorizationStatus(ATTrackingManager.trackingAuthorizationStatus)
        }
        return Self.statusBeforeTrackingTransparency
    }

    /// `ATTrackingManager.requestTrackingAuthorization(completionHandler:)`, asked on the main actor, where the
    /// prompt is presented.
    public func requestAuthorization() async -> TrackingAuthorizationStatus {
        if #available(iOS 14.0, *), hasTrackingTransparency {
            return await withCheckedContinuation { continuation in
                Task { @MainActor in
                    ATTrackingManager.requestTrackingAuthorization { status in
                        continuation.resume(returning: TrackingAuthorizationStatus(status))
                    }
                }
            }
        }
        return Self.statusBeforeTrackingTransparency
    }

    /// `ASIdentifierManager.shared().advertisingIdentifier`.
    public func advertisingIdentifier() async -> UUID? {
        ASIdentifierManager.shared().advertisingIdentifier
    }

    /// `UIDevice.current.identifierForVendor`, read on the main actor as UIKit requires.
    public func vendorIdentifier() async -> UUID? {
        await MainActor.run { UIDevice.current.identifierForVendor }
    }

    /// Before iOS 14: `isAdvertisingTrackingEnabled` (deprecated in 14.0, where App Tracking Transparency
    /// replaced it).
    @available(iOS, deprecated: 14.0)
    private static var statusBeforeTrackingTransparency: TrackingAuthorizationStatus {
        ASIdentifierManager.shared().isAdvertisingTrackingEnabled ? .authorized : .denied
    }
}

/// UIKit's application state: `untilActive()` returns once `applicationState` is `.active`, waiting for
/// `didBecomeActiveNotification` when it is not, or once the waiting task is cancelled. The observer is added
/// and the state read on the main actor, where UIKit changes both, so no activation falls between them.
/// Unavailable in app extensions, which have no `UIApplication.shared`.
@available(iOSApplicationExtension, unavailable)
public struct SystemAppActivity: AppActivity {
    /// Reads whether the app is active from UIKit's application state and its activation notifications.
    public init() {}

    /// Returns once the app is active, or the task is cancelled.
    public func untilActive() async {
        let signal = ActivationSignal()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                signal.set(continuation)
                Task { @MainActor in
                    let observer = NotificationCenter.default.addObserver(
                        forName: UIApplication.didBecomeActiveNotification, object: nil, queue: nil
                    ) { _ in signal.fire() }
                    signal.keep(observer)
                    if UIApplication.shared.applicationState == .active { signal.fire() }
                }
            }
        } onCancel: {
            signal.fire()
        }
    }
}

/// Resumes a waiting task once, and removes the observer that woke it. `fire` may come before `set` (a task
/// cancelled at once) or before `keep` (an app already active): each is remembered.
private final class ActivationSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, Never>?
    private var observer: (any NSObjectProtocol)?
    private var fired = false

    func set(_ continuation: CheckedContinuation<Void, Never>) {
        let resumeNow = lock.withLock {
            if fired { return true }
            self.continuation = continuation
            return false
        }
        if resumeNow { continuation.resume() }
    }

    func keep(_ observer: any NSObjectProtocol) {
        let removeNow = lock.withLock {
            if fired { return true }
            self.observer = observer
            return false
        }
        if removeNow { NotificationCenter.default.removeObserver(observer) }
    }

    func fire() {
        let (continuation, observer) = lock.withLock {
            defer { (self.continuation, self.observer, fired) = (nil, nil, true) }
            return (self.continuation, self.observer)
        }
        if let observer { NotificationCenter.default.removeObserver(observer) }
        continuation?.resume()
    }
}

extension TrackingAuthorizationStatus {
    @available(iOS 14.0, *)
    init(_ status: ATTrackingManager.AuthorizationStatus) {
        switch status {
        case .notDetermined: self = .notDetermined
        case .restricted: self = .restricted
        case .denied: self = .denied
        case .authorized: self = .authorized
        @unknown default: self = .restricted
        }
    }
}
#endif
