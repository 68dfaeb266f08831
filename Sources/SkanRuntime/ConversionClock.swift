public import Foundation

/// Where the updater reads the time; tests and apps can substitute their own.
public protocol ConversionClock: Sendable {
    /// Now, as the updater measures conversion windows from the first launch.
    var now: Date { get }
}

/// The device's clock (`Date()`), which the updater uses in an app; tests give it a clock they move.
public struct SystemClock: ConversionClock {
    /// A clock reading the device's time.
    public init() {}
    /// `Date()`: the device's time, which the user can change.
    public var now: Date { Date() }
}
