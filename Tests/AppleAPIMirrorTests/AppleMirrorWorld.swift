import Foundation
import Testing

/// What the mirrored frameworks answer and what they were asked, for one test: the calls made, in order,
/// the errors the next calls meet, and the values the system would give. Each test binds a world of its own
/// through the `.appleMirrorWorld` trait; the mirror reads `AppleMirrorWorld.current`, a task-local value, so
/// suites that run in parallel never see each other's calls.
final class AppleMirrorWorld: @unchecked Sendable {
    /// The world of the running test (tasks it starts inherit it).
    @TaskLocal static var current = AppleMirrorWorld(unbound: ())

    private let lock = NSLock()
    private let isBound: Bool
    private var entries: [String] = []
    private var skAdNetworkError: (any Error)?
    private var adAttributionKitError: (any Error)?
    private var trackingStatus = ATTrackingManager.AuthorizationStatus.notDetermined
    private var trackingAnswer = ATTrackingManager.AuthorizationStatus.authorized
    private var answerKeepsStatus = false
    private var advertising = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    private var token: String? = "mirror-token"
    private var supported = true
    private var limitAdTrackingOff = true
    /// The postbacks the calls made so far leave on the device, by Apple's documented rules.
    let postbacks = AttributionModel()

    init() { isBound = true }

    /// Whether the caller runs on the main dispatch queue: the main actor's executor. (Not `Thread.isMainThread`:
    /// on Linux the main queue is drained by a worker thread once the main thread parks in `dispatchMain`.)
    static var isOnMainQueue: Bool { DispatchQueue.getSpecific(key: mainQueueKey) == true }
    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()
    private init(unbound: Void) { isBound = false }

    func append(_ entry: String) {
        // A call outside a test's world would be lost to every assertion: make it loud instead.
        precondition(isBound, "a mirrored Apple API was called outside a test with the .appleMirrorWorld trait")
        lock.withLock { entries.append(entry) }
    }

    /// The calls made since the last time they were taken.
    func takeAll() -> [String] {
        lock.withLock {
            defer { entries = [] }
            return entries
        }
    }

    /// The next SKAdNetwork completion handler receives `error`; the next AdAttributionKit call throws it.
    func failNext(skAdNetwork: (any Error)? = nil, adAttributionKit: (any Error)? = nil) {
        lock.withLock { (skAdNetworkError, adAttributionKitError) = (skAdNetwork, adAttributionKit) }
    }
    func takeSKAdNetworkError() -> (any Error)? {
        lock.withLock {
            defer { skAdNetworkError = nil }
            return skAdNetworkError
        }
    }
    func takeAdAttributionKitError() -> (any Error)? {
        lock.withLock {
            defer { adAttributionKitError = nil }
            return adAttributionKitError
        }
    }

    /// App Tracking Transparency's status now, and the one a request turns it into.
    var trackingAuthorization:
        (status: ATTrackingManager.AuthorizationStatus, answer: ATTrackingManager.AuthorizationStatus)
    {
        get { lock.withLock { (trackingStatus, trackingAnswer) } }
        set { lock.withLock { (trackingStatus, trackingAnswer) = (newValue.status, newValue.answer) } }
    }
    /// What a request for tracking authorization does: the status becomes the answer; with
    /// `answerWithoutPrompt`, as some iOS 17.4 releases did, the callback gets the answer and the status stays.
    func answerTrackingRequest() -> ATTrackingManager.AuthorizationStatus {
        lock.withLock {
            if answerKeepsStatus { return trackingAnswer }
            trackingStatus = trackingAnswer
            return trackingStatus
        }
    }
    /// Makes requests answer without changing the status (no prompt was seen).
    func answerWithoutPrompt() {
        lock.withLock { answerKeepsStatus = true }
    }
    /// AdSupport's advertising identifier (all zeros when tracking is limited).
    var advertisingIdentifier: UUID {
        get { lock.withLock { advertising } }
        set { lock.withLock { advertising = newValue } }
    }
    /// AdSupport's `isAdvertisingTrackingEnabled` (before iOS 14: false when Limit Ad Tracking is on).
    var advertisingTrackingEnabled: Bool {
        get { lock.withLock { limitAdTrackingOff } }
        set { lock.withLock { limitAdTrackingOff = newValue } }
    }
    /// What `Postback.isSupported` answers (iOS 18.0 and later).
    var postbacksSupported: Bool {
        get { lock.withLock { supported } }
        set { lock.withLock { supported = newValue } }
    }
    /// AdServices' attribution token; nil makes the call throw.
    var attributionToken: String? {
        get { lock.withLock { token } }
        set { lock.withLock { token = newValue } }
    }
}

/// Runs each test of a suite in a world of its own (`AppleMirrorWorld.current`).
struct AppleMirrorWorldTrait: TestTrait, SuiteTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await AppleMirrorWorld.$current.withValue(AppleMirrorWorld()) { try await function() }
    }
}

extension Trait where Self == AppleMirrorWorldTrait {
    /// Each test sees only its own calls to the mirrored frameworks and sets its own answers.
    static var appleMirrorWorld: Self { AppleMirrorWorldTrait() }
}
