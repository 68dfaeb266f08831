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
    public struct Failure: Error, Equatable {
        public init() {}
    }

    /// One update a framework took.
    public struct Sent: Sendable, Equatable {
        public var framework: AttributionFramework
        public var update: ConversionValueUpdate
    }

    public nonisolated let frameworks: [AttributionFramework]
    /// Every update taken, in order.
    public private(set) var sent: [Sent] = []
    private var failuresToThrow: [AttributionFramework: Int] = [:]

    public init(frameworks: [AttributionFramework] = AttributionFramework.allCases) {
        self.frameworks = frameworks
    }

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
