public import Foundation

/// The conversion windows of SKAdNetwork 4 and AdAttributionKit, measured in hours from first launch:
/// window 1 is [0 h, 48 h), window 2 [48 h, 168 h), window 3 [168 h, 840 h); after 840 hours (35 days)
/// there is none. Apple: "The first conversion window ends two days after the user first launches the
/// app … the second conversion window ends seven days after … the third conversion window ends after
/// 35 days" (StoreKit, Receiving postbacks in multiple conversion windows). Pages that say "days 0-2,
/// 3-7, 8-35" describe the same instants; counting whole calendar days from them ends each window a day
/// late.
public enum ConversionWindow {
    /// When windows 1, 2 and 3 end, in seconds after first launch.
    public static let ends: [TimeInterval] = [48 * 3_600, 168 * 3_600, 840 * 3_600]

    /// The window at `date` for an app first launched at `firstLaunch`, or nil after the last window.
    /// A clock set back before the first launch still counts as window 1.
    public static func window(at date: Date, firstLaunch: Date) -> Int? {
        let elapsed = date.timeIntervalSince(firstLaunch)
        for (index, end) in ends.enumerated() where elapsed < end {
            return index + 1
        }
        return nil
    }
}

/// Where the updater reads the time; tests and apps can substitute their own.
public protocol ConversionClock: Sendable {
    var now: Date { get }
}

/// The system clock.
public struct SystemClock: ConversionClock {
    /// The system clock.
    public init() {}
    /// The current date.
    public var now: Date { Date() }
}
