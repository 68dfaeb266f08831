/// Sends updates to the system. `SystemPostbackClient` calls SKAdNetwork and AdAttributionKit on Apple
/// platforms; `RecordingPostbackClient` records them, for tests and for platforms without either.
public protocol PostbackClient: Sendable {
    /// The frameworks this client reaches on this device, in the order the updater sends to them.
    var frameworks: [AttributionFramework] { get }
    /// Sends `update` through one framework; throws that framework's error.
    func send(_ update: ConversionValueUpdate, through framework: AttributionFramework) async throws
}

/// Records every update instead of sending it; can be told to fail, to test error handling.
public actor RecordingPostbackClient: PostbackClient {
    /// The error a recording client throws when told to fail.
    public struct Failure: Error, Equatable {
        /// The failure.
        public init() {}
    }

    /// One update a framework took.
    public struct Sent: Sendable, Equatable {
        /// The framework that took it.
        public var framework: AttributionFramework
        /// The update.
        public var update: ConversionValueUpdate
    }

    /// The frameworks this client pretends to reach.
    public nonisolated let frameworks: [AttributionFramework]
    /// Every update taken, in order.
    public private(set) var sent: [Sent] = []
    private var failuresToThrow: [AttributionFramework: Int] = [:]

    /// A client reaching `frameworks` (both by default).
    public init(frameworks: [AttributionFramework] = AttributionFramework.allCases) {
        self.frameworks = frameworks
    }

    /// Records `update` as taken by `framework`, or throws `Failure` when told to fail.
    public func send(_ update: ConversionValueUpdate, through framework: AttributionFramework) async throws {
        if let remaining = failuresToThrow[framework], remaining > 0 {
            failuresToThrow[framework] = remaining - 1
            throw Failure()
        }
        sent.append(Sent(framework: framework, update: update))
    }

    /// The updates `framework` took, in order.
    public func updates(through framework: AttributionFramework) -> [ConversionValueUpdate] {
        sent.filter { $0.framework == framework }.map(\.update)
    }

    /// Makes the next `count` sends through `framework` (every framework when nil) throw `Failure`.
    public func failNext(_ count: Int, through framework: AttributionFramework? = nil) {
        for each in framework.map({ [$0] }) ?? frameworks {
            failuresToThrow[each] = count
        }
    }
}
