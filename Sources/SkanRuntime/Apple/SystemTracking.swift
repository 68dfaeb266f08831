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
public import SkanRuntime
#endif

/// App Tracking Transparency (iOS 14 and later) and the advertising and vendor identifiers. Before iOS 14
/// there is no prompt: the status is `authorized`, and a device limiting ad tracking gives a zero identifier,
/// which `TrackingAuthorizer` treats as none.
public struct SystemTracking: TrackingSystem {
    /// The system's tracking authorization.
    public init() {}

    /// `ATTrackingManager.trackingAuthorizationStatus`.
    public func currentStatus() async -> TrackingAuthorizationStatus {
        if #available(iOS 14.0, *) {
            return TrackingAuthorizationStatus(ATTrackingManager.trackingAuthorizationStatus)
        }
        return .authorized
    }

    /// `ATTrackingManager.requestTrackingAuthorization(completionHandler:)`.
    public func requestAuthorization() async -> TrackingAuthorizationStatus {
        if #available(iOS 14.0, *) {
            return await withCheckedContinuation { continuation in
                ATTrackingManager.requestTrackingAuthorization { status in
                    continuation.resume(returning: TrackingAuthorizationStatus(status))
                }
            }
        }
        return .authorized
    }

    /// `ASIdentifierManager.shared().advertisingIdentifier`.
    public func advertisingIdentifier() async -> UUID? {
        ASIdentifierManager.shared().advertisingIdentifier
    }

    /// `UIDevice.current.identifierForVendor`, read on the main actor as UIKit requires.
    public func vendorIdentifier() async -> UUID? {
        await MainActor.run { UIDevice.current.identifierForVendor }
    }
}

/// UIKit's application state: `untilActive()` returns once `applicationState` is `.active`, waiting for
/// `didBecomeActiveNotification` when it is not. The observer is added and the state read on the main
/// actor, where UIKit changes both, so no activation falls between them.
public struct SystemAppActivity: AppActivity {
    /// The app's activity.
    public init() {}

    /// Returns once the app is active.
    public func untilActive() async {
        let signal = ActivationSignal()
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
    }
}

/// Resumes a waiting task once, and removes the observer that woke it.
private final class ActivationSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, Never>?
    private var observer: (any NSObjectProtocol)?

    func set(_ continuation: CheckedContinuation<Void, Never>) {
        lock.withLock { self.continuation = continuation }
    }

    func keep(_ observer: any NSObjectProtocol) {
        lock.withLock { self.observer = observer }
    }

    func fire() {
        let (continuation, observer) = lock.withLock {
            defer { (self.continuation, self.observer) = (nil, nil) }
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
