import Foundation
import SkanAppleAdsClient
import SkanCore
import SkanTracking
import Testing

/// The runtime's App Tracking Transparency, UIKit and AdServices calls, compiled against the mirror and run
/// through `TrackingAuthorizer` and `AppleAdsAttributionClient` as an app runs them. Serialized: UIKit's
/// application state is one per process, as on a device.
@Suite(.serialized, .appleMirrorWorld) struct SystemTrackingTests {
    /// A request made while the app launches (inactive), returned once the authorizer has read UIKit's state
    /// (after adding its observer) and found the app launching.
    func requestDuringLaunch() async -> (TrackingAuthorizer, Task<TrackingAuthorizationStatus, Never>) {
        AppleMirrorWorld.current.trackingAuthorization = (status: .notDetermined, answer: .authorized)
        let readsBefore = await MainActor.run {
            UIApplication.shared.mirroredState = .inactive
            return UIApplication.shared.stateReads
        }
        let tracking = TrackingAuthorizer(system: SystemTracking(), activity: SystemAppActivity())
        let request = Task { await tracking.requestIfNeeded() }
        await UIApplication.shared.mirrorUntilStateRead(moreThan: readsBefore)
        return (tracking, request)
    }

    @Test func theAuthorizerAsksATTOnlyAfterUIKitReportsTheAppActive() async throws {
        let world = AppleMirrorWorld.current
        world.advertisingIdentifier = UUID(uuidString: "6D92078A-8246-4BA4-AE5B-76104861E7DC")!
        let (tracking, request) = await requestDuringLaunch()
        #expect(world.takeAll().isEmpty)
        await MainActor.run { UIApplication.shared.mirrorBecomeActive() }
        #expect(await request.value == .authorized)
        #expect(world.takeAll() == ["ATTrackingManager.requestTrackingAuthorization on the main queue"])
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
        #expect(world.takeAll() == ["ATTrackingManager.requestTrackingAuthorization on the main queue"])
        let identifiers = await tracking.identifiers()
        #expect(identifiers.advertising == nil)
        #expect(identifiers.vendor == UUID(uuidString: "00000000-0000-4000-8000-00000000ABCD"))
    }

    @Test func anAnswerTheStatusDoesNotKeepIsNoAnswer() async throws {
        // Some iOS 17.4 releases called back `.denied` at once while the status stayed notDetermined.
        let world = AppleMirrorWorld.current
        world.trackingAuthorization = (status: .notDetermined, answer: .denied)
        world.answerWithoutPrompt()
        await MainActor.run { UIApplication.shared.mirroredState = .active }
        let tracking = TrackingAuthorizer(system: SystemTracking(), activity: SystemAppActivity())
        #expect(await tracking.requestIfNeeded() == .notDetermined)
        #expect(world.takeAll() == ["ATTrackingManager.requestTrackingAuthorization on the main queue"])
    }

    @Test func beforeIOS14LimitAdTrackingIsDeniedAndNothingIsAsked() async throws {
        let world = AppleMirrorWorld.current
        world.advertisingTrackingEnabled = false
        let tracking = TrackingAuthorizer(
            system: SystemTracking(hasTrackingTransparency: false), activity: SystemAppActivity())
        #expect(await tracking.status() == .denied)
        #expect(await tracking.requestIfNeeded() == .denied)
        world.advertisingTrackingEnabled = true
        #expect(await tracking.status() == .authorized)
        #expect(world.takeAll().isEmpty)
    }

    @Test func aCancelledWaitForTheAppEndsWithoutAPrompt() async throws {
        let world = AppleMirrorWorld.current
        let (_, request) = await requestDuringLaunch()
        request.cancel()
        #expect(await request.value == .notDetermined)
        // Becoming active later shows no prompt: the request was given up.
        await MainActor.run { UIApplication.shared.mirrorBecomeActive() }
        #expect(world.takeAll().isEmpty)
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
