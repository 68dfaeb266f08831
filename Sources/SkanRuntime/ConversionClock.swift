public import Foundation

/// Where the updater reads the time; tests and apps can substitute their own.
public protocol ConversionClock: Sendable {
    /// The current date.
    var now: Date { get }
}

/// The system clock.
public struct SystemClock: ConversionClock {
    /// The system clock.
    public init() {}
    /// The current date.
    public var now: Date { Date() }
}
