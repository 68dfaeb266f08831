import Foundation
import SkanRuntime
import Testing

/// The runtime's App Tracking Transparency, UIKit and AdServices calls, compiled against the mirror and run
/// through `TrackingAuthorizer` and `AppleAdsAttributionClient` as an app runs them. Serialized: UIKit's
/// application state is one per process, as on a device.
@Suite(.serialized, .appleMirrorWorld) struct SystemTrackingTests {
    @Test func theAuthorizerAsksATTOnlyAfterUIKitReportsTheAppActive() async throws {
        let world = AppleMirrorWorld.current
        world.trackingAuthorization = (status: .notDetermined, answer: .authorized)
        world.advertisingIdentifier = UUID(uuidString: "6D92078A-8246-4BA4-AE5B-76104861E7DC")!
        let readsBefore = await MainActor.run {
            UIApplication.shared.mirroredState = .inactive
            return UIApplication.shared.stateReads
        }
        let tracking = TrackingAuthorizer(system: SystemTracking(), activity: SystemAppActivity())
        let request = Task { await tracking.requestIfNeeded() }
        // The authorizer has read UIKit's state (after adding its observer) and found the app launching.
        await UIApplication.shared.mirrorUntilStateRead(moreThan: readsBefore)
        #expect(world.takeAll().isEmpty)
        await MainActor.run { UIApplication.shared.mirrorBecomeActive() }
        #expect(await request.value == .authorized)
        #expect(world.takeAll() == ["ATTrackingManager.requestTrackingAuthorization"])
        #expect(await tracking.identifiers().advertising == world.advertisingIdentifier)
        // Answered: never asked again.
        #expect(await tracking.requestIfNeeded() == .authorized)
        #expect(world.takeAll().isEmpty)
    }

    @Test func anActiveAppIsAskedAtOnceAndADeniedOneGivesNoIdentifier() async throws {
        let world = AppleMirrorWorld.current
        world.trackingAuthorization = (status: .notDetermined, answer: .denied)
        await MainActor.run { UIApplication.shared.mirroredState = .active }
        let tracking = TrackingAuthorizer(system: SystemTracking(), activity: SystemAppActivity(), vendorFallback: true)
        #expect(await tracking.requestIfNeeded() == .denied)
        #expect(world.takeAll() == ["ATTrackingManager.requestTrackingAuthorization"])
        let identifiers = await tracking.identifiers()
        #expect(identifiers.advertising == nil)
        #expect(identifiers.vendor == UUID(uuidString: "00000000-0000-4000-8000-00000000ABCD"))
    }

    @Test func theTokenComesFromAdServices() async throws {
        let world = AppleMirrorWorld.current
        world.attributionToken = "mirror-token"
        #expect(try await SystemAttributionTokenSource().attributionToken() == "mirror-token")
        #expect(world.takeAll() == ["AAAttribution.attributionToken"])
        world.attributionToken = nil
        await #expect(throws: (any Error).self) { try await SystemAttributionTokenSource().attributionToken() }
    }
}
