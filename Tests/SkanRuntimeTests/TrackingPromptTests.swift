import Foundation
import GeneratedPublic
import SkanCore
import SkanRuntime
import SkanTracking
import Testing

/// The two products an app links together: conversion values go out while the tracking prompt still waits for
/// the app to become active (SkanTracking's own behaviour is tested in SkanTrackingTests).
@Suite struct TrackingPromptTests {
    /// Tracking not yet decided; its answer, if ever asked, is `authorized`.
    struct UndecidedTracking: TrackingSystem {
        func currentStatus() async -> TrackingAuthorizationStatus { .notDetermined }
        func requestAuthorization() async -> TrackingAuthorizationStatus { .authorized }
        func advertisingIdentifier() async -> UUID? { nil }
        func vendorIdentifier() async -> UUID? { nil }
    }

    /// An app still launching: a wait for it to become active lasts until the waiting task is cancelled.
    actor LaunchingApp: AppActivity {
        private(set) var waits = 0

        func untilActive() async {
            waits += 1
            let forever = AsyncStream<Void> { _ in }
            for await _ in forever {}
        }
    }

    @Test func conversionValuesDoNotWaitForTheTrackingPrompt() async throws {
        let app = LaunchingApp()
        let tracking = TrackingAuthorizer(system: UndecidedTracking(), activity: app)
        let prompt = Task { await tracking.requestIfNeeded() }
        while await app.waits == 0 { await Task.yield() }
        // The prompt is waiting for the app to become active; the updater sends anyway.
        let (updater, client, _, _) = makeUpdater(Shop.self)
        try await updater.record { $0.registered = true }
        #expect(await client.updates(through: .skAdNetwork).map(\.fineValue) == [1])
        prompt.cancel()
        #expect(await prompt.value == .notDetermined)
    }
}
