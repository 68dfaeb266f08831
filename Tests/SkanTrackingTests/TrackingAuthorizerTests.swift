import Foundation
import SkanCore
import SkanTracking
import Testing

/// App Tracking Transparency as a sequence of answers, recording each request.
actor FakeTrackingSystem: TrackingSystem {
    var status: TrackingAuthorizationStatus
    var answer: TrackingAuthorizationStatus
    var advertising: UUID?
    private(set) var requests = 0

    init(
        status: TrackingAuthorizationStatus = .notDetermined, answer: TrackingAuthorizationStatus = .authorized,
        advertising: UUID? = UUID(uuidString: "6D92078A-8246-4BA4-AE5B-76104861E7DC")
    ) {
        (self.status, self.answer, self.advertising) = (status, answer, advertising)
    }

    func currentStatus() async -> TrackingAuthorizationStatus { status }
    func requestAuthorization() async -> TrackingAuthorizationStatus {
        requests += 1
        status = answer
        return status
    }
    // As iOS does: zeros unless tracking is authorized.
    func advertisingIdentifier() async -> UUID? {
        status == .authorized ? advertising : TrackingAuthorizer.zeroForTests
    }
    func vendorIdentifier() async -> UUID? { UUID(uuidString: "00000000-0000-4000-8000-00000000ABCD") }
}

/// An app that is inactive (launching) until the test activates it; a cancelled wait ends, as UIKit's does.
actor FakeAppActivity: AppActivity {
    private var active: Bool
    private var waiting: [UUID: CheckedContinuation<Void, Never>] = [:]
    private(set) var waits = 0

    init(active: Bool) { self.active = active }

    func untilActive() async {
        waits += 1
        if active { return }
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled { continuation.resume() } else { waiting[id] = continuation }
            }
        } onCancel: {
            Task { await self.release(id) }
        }
    }

    private func release(_ id: UUID) {
        waiting.removeValue(forKey: id)?.resume()
    }

    func becomeActive() {
        active = true
        for continuation in waiting.values { continuation.resume() }
        waiting = [:]
    }
}

/// A sleeper whose sleeps end when the test says so (or when cancelled): a timeout without a clock.
actor ManualSleeper: Sleeper {
    private var sleeping: [UUID: CheckedContinuation<Void, any Error>] = [:]
    private(set) var requested: [Double] = []

    func sleep(seconds: Double) async throws {
        requested.append(seconds)
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    sleeping[id] = continuation
                }
            }
        } onCancel: {
            Task { await self.cancel(id) }
        }
    }

    private func cancel(_ id: UUID) {
        sleeping.removeValue(forKey: id)?.resume(throwing: CancellationError())
    }

    /// Ends every sleep now: the time has passed.
    func elapse() {
        for continuation in sleeping.values { continuation.resume() }
        sleeping = [:]
    }

    var sleepers: Int { sleeping.count }
}

extension TrackingAuthorizer {
    static let zeroForTests = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
}

@Suite struct TrackingAuthorizerTests {
    @Test func aRequestDuringLaunchWaitsUntilTheAppIsActive() async throws {
        let system = FakeTrackingSystem()
        let activity = FakeAppActivity(active: false)
        let tracking = TrackingAuthorizer(system: system, activity: activity)
        let request = Task { await tracking.requestIfNeeded() }
        // Launching: the authorizer waits and has not asked the system.
        while await activity.waits == 0 { await Task.yield() }
        #expect(await system.requests == 0)
        #expect(await tracking.status() == .notDetermined)
        await activity.becomeActive()
        #expect(await request.value == .authorized)
        #expect(await system.requests == 1)
    }

    @Test func asksOnceAndNeverAgainOnceAnswered() async throws {
        let system = FakeTrackingSystem(answer: .denied)
        let tracking = TrackingAuthorizer(system: system, activity: FakeAppActivity(active: true))
        async let first = tracking.requestIfNeeded()
        async let second = tracking.requestIfNeeded()
        #expect(await [first, second] == [.denied, .denied])
        #expect(await tracking.requestIfNeeded() == .denied)
        #expect(await system.requests == 1)
    }

    @Test(arguments: [TrackingAuthorizationStatus.restricted, .denied, .authorized])
    func aDeterminedStatusIsNotAskedAgain(_ status: TrackingAuthorizationStatus) async throws {
        let system = FakeTrackingSystem(status: status)
        let tracking = TrackingAuthorizer(system: system, activity: FakeAppActivity(active: false))
        #expect(await tracking.requestIfNeeded() == status)
        #expect(await system.requests == 0)
    }

    @Test func anUnansweredRequestIsMadeAgainNextTime() async throws {
        // iOS answers notDetermined when the app left the foreground before the prompt showed.
        let system = FakeTrackingSystem(answer: .notDetermined)
        let tracking = TrackingAuthorizer(system: system, activity: FakeAppActivity(active: true))
        #expect(await tracking.requestIfNeeded() == .notDetermined)
        await system.setAnswer(.authorized)
        #expect(await tracking.requestIfNeeded() == .authorized)
        #expect(await system.requests == 2)
    }

    @Test func theAdvertisingIdentifierOnlyWhenAuthorizedAndNotZero() async throws {
        let id = UUID(uuidString: "6D92078A-8246-4BA4-AE5B-76104861E7DC")!
        for (status, advertising, expected) in [
            (TrackingAuthorizationStatus.authorized, id, id), (.authorized, TrackingAuthorizer.zeroForTests, nil),
            (.denied, id, nil), (.restricted, id, nil), (.notDetermined, id, nil),
        ] as [(TrackingAuthorizationStatus, UUID, UUID?)] {
            let system = FakeTrackingSystem(status: status, advertising: advertising)
            let tracking = TrackingAuthorizer(system: system, activity: FakeAppActivity(active: true))
            #expect(await tracking.identifiers().advertising == expected, "\(status)")
            #expect(await tracking.identifiers().vendor == nil)
        }
        let fallback = TrackingAuthorizer(
            system: FakeTrackingSystem(status: .denied), activity: FakeAppActivity(active: true), vendorFallback: true)
        #expect(
            await fallback.identifiers()
                == .init(advertising: nil, vendor: UUID(uuidString: "00000000-0000-4000-8000-00000000ABCD")))
    }
}

extension FakeTrackingSystem {
    func setAnswer(_ answer: TrackingAuthorizationStatus) { self.answer = answer }
    func setStatus(_ status: TrackingAuthorizationStatus) { self.status = status }
}

/// What a waiting app may give up on: a timeout and cancellation end the wait for activity with no prompt.
@Suite struct TrackingRequestTimeoutTests {
    @Test func anAppThatNeverBecomesActiveGetsNotDeterminedAfterTheTimeout() async throws {
        let (system, activity, sleeper) = (FakeTrackingSystem(), FakeAppActivity(active: false), ManualSleeper())
        let tracking = TrackingAuthorizer(system: system, activity: activity, sleeper: sleeper)
        let request = Task { await tracking.requestIfNeeded(timeout: 10) }
        while await sleeper.sleepers == 0 { await Task.yield() }
        while await activity.waits == 0 { await Task.yield() }
        #expect(await sleeper.requested == [10])
        await sleeper.elapse()
        #expect(await request.value == .notDetermined)
        // Becoming active later shows no prompt; the next call asks.
        await activity.becomeActive()
        #expect(await system.requests == 0)
        #expect(await tracking.requestIfNeeded() == .authorized)
        #expect(await system.requests == 1)
    }

    @Test func anAnswerBeforeTheTimeoutIsTheAnswer() async throws {
        let (system, sleeper) = (FakeTrackingSystem(answer: .denied), ManualSleeper())
        let tracking = TrackingAuthorizer(system: system, activity: FakeAppActivity(active: true), sleeper: sleeper)
        #expect(await tracking.requestIfNeeded(timeout: 10) == .denied)
        // The timer was stopped, not left to run out.
        #expect(await sleeper.sleepers == 0)
    }

    @Test func cancellingTheCallerEndsTheWait() async throws {
        let (system, activity) = (FakeTrackingSystem(), FakeAppActivity(active: false))
        let tracking = TrackingAuthorizer(system: system, activity: activity, sleeper: ManualSleeper())
        let request = Task { await tracking.requestIfNeeded() }
        while await activity.waits == 0 { await Task.yield() }
        request.cancel()
        #expect(await request.value == .notDetermined)
        #expect(await system.requests == 0)
    }

    @Test func theStatusIsReadAgainAfterTheAnswer() async throws {
        // The callback said denied, but the status stayed notDetermined: no prompt was seen.
        actor AnswerWithoutPrompt: TrackingSystem {
            func currentStatus() async -> TrackingAuthorizationStatus { .notDetermined }
            func requestAuthorization() async -> TrackingAuthorizationStatus { .denied }
            func advertisingIdentifier() async -> UUID? { nil }
            func vendorIdentifier() async -> UUID? { nil }
        }
        let tracking = TrackingAuthorizer(system: AnswerWithoutPrompt(), activity: FakeAppActivity(active: true))
        #expect(await tracking.requestIfNeeded() == .notDetermined)
    }
}
