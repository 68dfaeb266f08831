/// Sends updates to the system. `SystemPostbackClient` calls SKAdNetwork and AdAttributionKit on Apple
/// platforms; `RecordingPostbackClient` records them, for tests and for platforms without either.
public protocol PostbackClient: Sendable {
    /// The frameworks that take updates for `conversion` on this device, in the order the updater sends to them.
    func frameworks(for conversion: Conversion) -> [AttributionFramework]
    /// Sends `update` of `conversion` through one framework; throws that framework's error.
    func send(_ update: ConversionValueUpdate, of conversion: Conversion, through framework: AttributionFramework)
        async throws
    /// How long `error`, thrown by `send` through `framework`, holds. Transient unless the client knows better.
    func refusal(_ error: any Error, from framework: AttributionFramework) -> PostbackRefusal
    /// Which conversion a send of `conversion`'s update through `framework` reaches on this device.
    func reach(of conversion: Conversion, through framework: AttributionFramework) -> PostbackReach
}

extension PostbackClient {
    /// Every error is transient: the update is sent again on the next call.
    public func refusal(_ error: any Error, from framework: AttributionFramework) -> PostbackRefusal { .transient }

    /// SKAdNetwork's updates reach the most recent conversion (iOS copies them into AdAttributionKit without a
    /// tag or a conversion type); AdAttributionKit's reach the conversion they are for.
    public func reach(of conversion: Conversion, through framework: AttributionFramework) -> PostbackReach {
        framework == .skAdNetwork ? .latestConversion : .itsConversion
    }
}

/// Which conversion an update reaches. AdAttributionKit updates the conversion an update's tag names, or else the
/// most recent conversion of the update's conversion types (every type when it names none): AdAttributionKit,
/// "Identifying conversion values with conversion tags" and "Receiving ad attributions and postbacks".
public enum PostbackReach: String, Sendable, CaseIterable {
    /// The conversion the update is for: a tagged update, or an install's update typed `install` (an app has one
    /// install conversion).
    case itsConversion
    /// The most recent re-engagement: an untagged update typed `reengagement` (iOS 18.0-18.3, whose opens carry
    /// no tag).
    case latestReengagement
    /// The most recent conversion of any type: SKAdNetwork's updates, copied into AdAttributionKit, and
    /// AdAttributionKit's own before iOS 18.0, which has no conversion types.
    case latestConversion
}

/// How long a framework's refusal holds, and so what the updater sends it next.
public enum PostbackRefusal: String, Sendable, Codable, CaseIterable {
    /// It may pass (no connection, the system busy): the update is sent again on the next call.
    case transient
    /// This update will never be taken (SKAdNetwork's `invalidConversionValue`): it is not sent again; a
    /// different update is.
    case update
    /// No update of this conversion will be taken (AdAttributionKit's `invalidConversionTag` and
    /// `conversionTagNotSupported`): the framework is not sent this conversion's updates again.
    case conversion
}

/// Records every update instead of sending it; can be told to fail, to test error handling.
public actor RecordingPostbackClient: PostbackClient {
    /// The error a recording client throws when told to fail.
    public struct Failure: Error, Equatable {
        /// How long the failure holds.
        public var refusal: PostbackRefusal
        /// A failure holding for `refusal`.
        public init(_ refusal: PostbackRefusal = .transient) { self.refusal = refusal }
    }

    /// One update a framework took.
    public struct Sent: Sendable, Equatable {
        /// The framework that took it.
        public var framework: AttributionFramework
        /// The conversion it was for.
        public var conversion: Conversion
        /// The values sent, as the updater decided them.
        public var update: ConversionValueUpdate
    }

    /// The frameworks this client pretends to reach for installs; re-engagements reach AdAttributionKit only.
    public nonisolated let frameworks: [AttributionFramework]
    /// Every update taken, in order.
    public private(set) var sent: [Sent] = []
    private var failuresToThrow: [AttributionFramework: (count: Int, refusal: PostbackRefusal)] = [:]

    /// A client reaching `frameworks` (both by default, AdAttributionKit first).
    public init(frameworks: [AttributionFramework] = AttributionFramework.allCases) {
        self.frameworks = frameworks
    }

    /// `frameworks` for installs; for re-engagements, AdAttributionKit if it is one of them.
    public nonisolated func frameworks(for conversion: Conversion) -> [AttributionFramework] {
        switch conversion {
        case .install: frameworks
        case .reengagement: frameworks.filter { $0 == .adAttributionKit }
        }
    }

    /// Records `update` as taken by `framework`, or throws `Failure` when told to fail.
    public func send(
        _ update: ConversionValueUpdate, of conversion: Conversion, through framework: AttributionFramework
    )
        async throws
    {
        if let failure = failuresToThrow[framework], failure.count > 0 {
            failuresToThrow[framework] = (failure.count - 1, failure.refusal)
            throw Failure(failure.refusal)
        }
        sent.append(Sent(framework: framework, conversion: conversion, update: update))
    }

    /// The refusal a `Failure` names; transient for any other error.
    public nonisolated func refusal(_ error: any Error, from framework: AttributionFramework) -> PostbackRefusal {
        (error as? Failure)?.refusal ?? .transient
    }

    /// The updates `framework` took, in order.
    public func updates(through framework: AttributionFramework) -> [ConversionValueUpdate] {
        sent.filter { $0.framework == framework }.map(\.update)
    }

    /// Makes the next `count` sends through `framework` (every framework when nil) throw `Failure(refusal)`.
    public func failNext(
        _ count: Int, through framework: AttributionFramework? = nil, refusal: PostbackRefusal = .transient
    ) {
        for each in framework.map({ [$0] }) ?? frameworks {
            failuresToThrow[each] = (count, refusal)
        }
    }
}
