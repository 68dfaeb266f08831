/// Waits: between Apple Ads attempts, and for a tracking request's timeout. `TaskSleeper` really sleeps; tests
/// pass one they control, so that no test depends on how fast the machine is.
public protocol Sleeper: Sendable {
    /// Returns after `seconds`; throws when the task is cancelled.
    func sleep(seconds: Double) async throws
}

/// `Task.sleep`.
public struct TaskSleeper: Sleeper {
    /// Real sleeping.
    public init() {}

    /// Sleeps for `seconds`.
    public func sleep(seconds: Double) async throws {
        try await Task.sleep(nanoseconds: UInt64(max(0, min(seconds, 1e9)) * 1_000_000_000))
    }
}
