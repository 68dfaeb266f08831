public import Foundation
public import SkanVocabulary

extension ConversionWindow {
    /// When each conversion window ends, counted from the conversion's start. Two schedules exist:
    ///
    /// - `production`: windows end 48, 168 and 840 hours after first launch (an install) or after the open (a
    ///   re-engagement): StoreKit, "Receiving postbacks in multiple conversion windows"; AdAttributionKit,
    ///   "Receiving ad attributions and postbacks".
    /// - `developerMode`: on a device in Developer Mode with the AdAttributionKit Developer Mode switch on
    ///   (Settings > Developer > Ad Attribution Testing), the windows of *development* postbacks are 3 minutes each
    ///   (0-3, 3-6 and 6-9 minutes) counted from the first conversion-value update (AdAttributionKit, "Testing ad
    ///   attributions with Developer Mode"), so that windows 2 and 3 can be rehearsed in a sitting. Postbacks of
    ///   production impressions keep the full windows even there. Turn it on in debug builds with a development
    ///   postback only: elsewhere the system keeps the production windows, and an updater on the short schedule
    ///   would think windows over that are not.
    public struct Schedule: Sendable, Hashable, CustomStringConvertible {
        /// Seconds after the start at which each window ends.
        public let ends: PerWindow<TimeInterval>
        /// Whether the windows count from the first conversion-value update (Developer Mode) instead of from the
        /// conversion's start (first launch, or the re-engagement open).
        public let countsFromFirstUpdate: Bool

        /// The windows as iOS keeps them for apps from the App Store: 48, 168 and 840 hours.
        public static let production = Schedule(
            ends: PerWindow { TimeInterval($0.hours.upperBound * 3_600) }, countsFromFirstUpdate: false)

        /// The windows of a device in Developer Mode: 3, 6 and 9 minutes after the first update.
        public static let developerMode = Schedule(
            ends: PerWindow { TimeInterval($0.number * 3 * 60) }, countsFromFirstUpdate: true)

        /// The seconds after the start that `window` covers.
        public func span(of window: ConversionWindow) -> Range<TimeInterval> {
            let start = window == .first ? 0 : ends[ConversionWindow(rawValue: window.rawValue - 1) ?? .first]
            return start..<ends[window]
        }

        /// The window at `date` for windows that started at `start`, or nil after the last one. A clock set back
        /// before the start still counts as window 1.
        public func window(at date: Date, since start: Date) -> ConversionWindow? {
            let elapsed = date.timeIntervalSince(start)
            return ConversionWindow.allCases.first { elapsed < ends[$0] }
        }

        /// The hour of the production schedule that `elapsed` seconds after the start stand for: the schema's
        /// clock (`hours`, `within`, `in window`, time locks). In production, the hours themselves; on a shorter
        /// schedule, each window's span stretched onto its production span (minute 1.5 of Developer Mode's first
        /// window is hour 24), so that a journey rehearsed in minutes meets the schema's times in its windows.
        public func scheduleHours(afterSeconds elapsed: TimeInterval) -> Double {
            let elapsed = max(0, elapsed)
            guard let window = ConversionWindow.allCases.first(where: { elapsed < ends[$0] }) else {
                // After the last window the schema's times are all past; keep counting real hours beyond it.
                return Double(ConversionWindow.third.hours.upperBound) + (elapsed - ends[.third]) / 3_600
            }
            let span = self.span(of: window)
            let fraction = (elapsed - span.lowerBound) / (span.upperBound - span.lowerBound)
            let hours = window.hours
            return Double(hours.lowerBound) + fraction * Double(hours.upperBound - hours.lowerBound)
        }

        /// `production` or `developerMode`.
        public var description: String { countsFromFirstUpdate ? "developerMode" : "production" }
    }

    /// When windows 1, 2 and 3 end in production, in seconds after first launch (48, 168 and 840 hours).
    public static let ends: [TimeInterval] = Schedule.production.ends.values

    /// The production window at `date` for an app first launched at `firstLaunch`, or nil after the last window.
    public static func window(at date: Date, firstLaunch: Date) -> ConversionWindow? {
        Schedule.production.window(at: date, since: firstLaunch)
    }
}
