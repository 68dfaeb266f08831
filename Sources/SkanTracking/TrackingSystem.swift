public import Foundation

/// What `TrackingAuthorizer` needs from the system: App Tracking Transparency and the two identifiers.
/// `SystemTracking` is Apple's; tests and other platforms pass their own.
public protocol TrackingSystem: Sendable {
    /// The current status, without asking.
    func currentStatus() async -> TrackingAuthorizationStatus
    /// Asks the user (the system prompts only while the app is active, and only once per install).
    func requestAuthorization() async -> TrackingAuthorizationStatus
    /// The advertising identifier as the system gives it: all zeros unless tracking is authorized.
    func advertisingIdentifier() async -> UUID?
    /// The identifier for vendor (the same for this vendor's apps on the device), if the system has one.
    func vendorIdentifier() async -> UUID?
}

/// Whether the app is active, and a way to wait until it is (UIKit's `applicationState` and
/// `didBecomeActiveNotification` on iOS: `SystemAppActivity`).
public protocol AppActivity: Sendable {
    /// Returns once the app is active: at once when it already is. Returns early when the calling task is
    /// cancelled (the caller then checks `Task.isCancelled`).
    func untilActive() async
}
