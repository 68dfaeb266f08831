/// App Tracking Transparency's four answers (`ATTrackingManager.AuthorizationStatus`). Here rather than in
/// SkanTracking because the Apple Ads client also reads it (Apple gives the detailed record only to an authorized
/// status), and an app may link that client without linking tracking authorization.
public enum TrackingAuthorizationStatus: String, Sendable, Codable, CaseIterable {
    /// Not asked yet, or asked while the app was not active (no prompt was shown).
    case notDetermined
    /// Tracking is off by the device's configuration (a managed device, a child account); no prompt.
    case restricted
    /// The user said no (before iOS 14: Limit Ad Tracking is on).
    case denied
    /// The user allowed tracking.
    case authorized
}
