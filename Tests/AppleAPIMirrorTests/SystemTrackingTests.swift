import Foundation
import SkanRuntime
import Testing

/// The runtime's App Tracking Transparency, UIKit and AdServices calls, compiled against the mirror and run
/// through `TrackingAuthorizer` and `AppleAdsAttributionClient` as an app runs them.
@Suite(.serialized) struct SystemTrackingTests {
    @Test func theAuthorizerAsksATTOnlyAfterUIKitReportsTheAppActive() async throws {
        ATTrackingManager.mirroredStatus = .notDetermined
        ATTrackingManager.mirroredAnswer = .authorized
        ASIdentifierManager.mirroredIdentifier = UUID(uuidString: "6D92078A-8246-4BA4-AE5B-76104861E7DC")!
        await MainActor.run { UIApplication.shared.applicationState = .inactive }
        _ = AppleCallLog.shared.takeAll()
        let tracking = TrackingAuthorizer(system: SystemTracking(), activity: SystemAppActivity())
        let request = Task { await tracking.requestIfNeeded() }
        try await Task.sleep(nanoseconds: 100_000_000)
        // Launching: no request reached App Tracking Transparency.
        #expect(AppleCallLog.shared.takeAll().isEmpty)
        await MainActor.run { UIApplication.shared.mirrorBecomeActive() }
        #expect(await request.value == .authorized)
        #expect(AppleCallLog.shared.takeAll() == ["ATTrackingManager.requestTrackingAuthorization"])
        #expect(await tracking.identifiers().advertising == ASIdentifierManager.mirroredIdentifier)
        // Answered: never asked again.
        #expect(await tracking.requestIfNeeded() == .authorized)
        #expect(AppleCallLog.shared.takeAll().isEmpty)
    }

    @Test func anActiveAppIsAskedAtOnceAndADeniedOneGivesNoIdentifier() async throws {
        ATTrackingManager.mirroredStatus = .notDetermined
        ATTrackingManager.mirroredAnswer = .denied
        ASIdentifierManager.mirroredIdentifier = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        await MainActor.run { UIApplication.shared.applicationState = .active }
        let tracking = TrackingAuthorizer(system: SystemTracking(), activity: SystemAppActivity(), vendorFallback: true)
        #expect(await tracking.requestIfNeeded() == .denied)
        let identifiers = await tracking.identifiers()
        #expect(identifiers.advertising == nil)
        #expect(identifiers.vendor == UUID(uuidString: "00000000-0000-4000-8000-00000000ABCD"))
    }

    @Test func theTokenComesFromAdServices() async throws {
        AAAttribution.mirroredToken = "mirror-token"
        _ = AppleCallLog.shared.takeAll()
        #expect(try await SystemAttributionTokenSource().attributionToken() == "mirror-token")
        #expect(AppleCallLog.shared.takeAll() == ["AAAttribution.attributionToken"])
        AAAttribution.mirroredToken = nil
        await #expect(throws: (any Error).self) { try await SystemAttributionTokenSource().attributionToken() }
        AAAttribution.mirroredToken = "mirror-token"
    }
}
