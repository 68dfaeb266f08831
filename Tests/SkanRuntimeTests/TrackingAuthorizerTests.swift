import Foundation
import GeneratedPublic
import SkanRuntime
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

/// An app that is inactive (launching) until the test activates it.
actor FakeAppActivity: AppActivity {
    private var active: Bool
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private(set) var waits = 0

    init(active: Bool) { self.active = active }

    func untilActive() async {
        waits += 1
        if active { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func becomeActive() {
        active = true
        for continuation in waiting { continuation.resume() }
        waiting = []
    }
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

    @Test func conversionValuesDoNotWaitForTheTrackingPrompt() async throws {
        let activity = FakeAppActivity(active: false)
        let tracking = TrackingAuthorizer(system: FakeTrackingSystem(), activity: activity)
        let prompt = Task { await tracking.requestIfNeeded() }
        while await activity.waits == 0 { await Task.yield() }
        // The prompt is still waiting for the app to become active; the updater sends anyway.
        let (updater, client, _, _) = makeUpdater(Shop.self)
        try await updater.record { $0.registered = true }
        #expect(await client.updates(through: .skAdNetwork).map(\.fineValue) == [1])
        await activity.becomeActive()
        #expect(await prompt.value == .authorized)
    }
}

extension FakeTrackingSystem {
    func setAnswer(_ answer: TrackingAuthorizationStatus) { self.answer = answer }
}
