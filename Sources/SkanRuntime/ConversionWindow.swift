import Foundation

/// The conversion windows of SKAdNetwork 4 and AdAttributionKit, counted in whole days from first launch:
/// window 1 is days 0-2, window 2 days 3-7, window 3 days 8-35; after day 35 there is none.
public enum ConversionWindow {
    /// The window at `date` for an app first launched at `firstLaunch`, or nil after the last window.
    public static func window(at date: Date, firstLaunch: Date) -> Int? {
        let day = Int((date.timeIntervalSince(firstLaunch) / 86_400).rounded(.down))
        switch day {
        case ..<0, 0...2: return 1  // a clock set back still counts as the first window
        case 3...7: return 2
        case 8...35: return 3
        default: return nil
        }
    }
}

/// Where the updater reads the time; tests and apps can substitute their own.
public protocol ConversionClock: Sendable {
    var now: Date { get }
}

/// The system clock.
public struct SystemClock: ConversionClock {
    public init() {}
    public var now: Date { Date() }
}
