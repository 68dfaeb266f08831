/// A coarse conversion value as the runtime passes it to the system frameworks.
public enum CoarseConversion: String, Sendable, Codable, CaseIterable {
    case low, medium, high
}

/// One update the runtime asks the system to make: the values for the current window, and whether to
/// lock it. `window` is for the app's information; the system knows its own window.
public struct PostbackUpdate: Sendable, Equatable, Codable {
    public var window: Int
    public var fineValue: Int
    public var coarseValue: CoarseConversion
    public var lockWindow: Bool

    public init(window: Int, fineValue: Int, coarseValue: CoarseConversion, lockWindow: Bool) {
        self.window = window
        self.fineValue = fineValue
        self.coarseValue = coarseValue
        self.lockWindow = lockWindow
    }
}

/// Sends updates to the system. `SystemPostbackClient` calls SKAdNetwork and AdAttributionKit on Apple
/// platforms; `RecordingPostbackClient` records them, for tests and for platforms without either.
public protocol PostbackClient: Sendable {
    func send(_ update: PostbackUpdate) async throws
}

/// Records every update instead of sending it; can be told to fail, to test error handling.
public actor RecordingPostbackClient: PostbackClient {
    public struct Failure: Error, Equatable {
        public init() {}
    }

    public private(set) var updates: [PostbackUpdate] = []
    /// When set, `send` throws this many times before succeeding again (nothing is recorded meanwhile).
    public var failuresToThrow = 0

    public init() {}

    public func send(_ update: PostbackUpdate) async throws {
        if failuresToThrow > 0 {
            failuresToThrow -= 1
            throw Failure()
        }
        updates.append(update)
    }

    public func failNext(_ count: Int) {
        failuresToThrow = count
    }
}
