public import Foundation
public import SkanCore

extension ConversionWindow {
    /// When windows 1, 2 and 3 end, in seconds after first launch (48, 168 and 840 hours).
    public static let ends: [TimeInterval] = allCases.map { TimeInterval($0.hours.upperBound * 3_600) }

    /// The window at `date` for an app first launched at `firstLaunch`, or nil after the last window.
    /// A clock set back before the first launch still counts as window 1.
    public static func window(at date: Date, firstLaunch: Date) -> ConversionWindow? {
        let elapsed = date.timeIntervalSince(firstLaunch)
        return allCases.first { elapsed < TimeInterval($0.hours.upperBound * 3_600) }
    }
}
