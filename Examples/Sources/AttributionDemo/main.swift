import Foundation
import SkanAppleAdsClient
import SkanRuntime
import SkanTracking

// The attribution flows an app wires up next to conversion values, run against fakes: tracking
// authorization asked at launch (before the app is active) and answered once it is, conversion values sent
// meanwhile, and the Apple Ads attribution record fetched once, through a 404 while it is not ready.

extension Shop: ConversionValueState {}

/// App Tracking Transparency as a user who allows tracking.
actor DemoTracking: TrackingSystem {
    var status = TrackingAuthorizationStatus.notDetermined
    func currentStatus() async -> TrackingAuthorizationStatus { status }
    func requestAuthorization() async -> TrackingAuthorizationStatus {
        print("  system: tracking prompt shown, the user allows")
        status = .authorized
        return status
    }
    func advertisingIdentifier() async -> UUID? {
        status == .authorized
            ? UUID(uuidString: "6D92078A-8246-4BA4-AE5B-76104861E7DC")
            : UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    }
    func vendorIdentifier() async -> UUID? { nil }
}

/// An app that launches inactive and becomes active when told.
actor DemoActivity: AppActivity {
    private var active = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    func untilActive() async {
        if active { return }
        print("  authorizer: the app is not active yet; waiting before asking")
        await withCheckedContinuation { waiting.append($0) }
    }
    func isWaiting() -> Bool { !waiting.isEmpty }
    func becomeActive() {
        active = true
        for continuation in waiting { continuation.resume() }
        waiting = []
    }
}

/// Apple's attribution API: not ready on the first request, then Apple's documented example answer.
actor DemoAppleAdsAPI: HTTPTransport {
    private var requests = 0
    func post(_ url: URL, body: Data, contentType: String) async throws -> HTTPResponse {
        requests += 1
        let status = requests == 1 ? 404 : 200
        print("  POST \(url.absoluteString) (\(contentType), \(body.count) bytes) -> \(status)")
        let answer =
            #"{"attribution":true,"orgId":40669820,"campaignId":542370539,"conversionType":"Download","claimType":"Click","adGroupId":542317095,"countryOrRegion":"US","keywordId":87675432,"adId":542317136,"clickDate":"2020-04-08T17:17Z"}"#
        return HTTPResponse(status: status, body: status == 200 ? Data(answer.utf8) : Data())
    }
}

struct DemoTokens: AttributionTokenSource {
    func attributionToken() async throws -> String { "demo-token" }
}

/// Prints the wait instead of waiting.
struct DemoSleeper: Sleeper {
    func sleep(seconds: Double) async throws { print("  client: not ready, asking again in \(Int(seconds)) s") }
}

print("1. Tracking authorization, asked during launch")
let activity = DemoActivity()
let tracking = TrackingAuthorizer(system: DemoTracking(), activity: activity)
let prompt = Task { await tracking.requestIfNeeded() }
while !(await activity.isWaiting()) { await Task.yield() }

print("2. Conversion values do not wait for the prompt")
let client = RecordingPostbackClient()
let updater = ConversionValueUpdater<Shop>(store: InMemoryConversionValueStore(), client: client)
try await updater.record { $0.registered = true }
print("  updater: fine value \(await client.updates(through: .skAdNetwork).last!.fineValue) sent")

print("3. The app becomes active")
await activity.becomeActive()
print("  status: \(await prompt.value.rawValue)")
print("  advertising identifier: \(await tracking.identifiers().advertising?.uuidString ?? "none")")

print("4. Apple Ads attribution, fetched once per install and tracking status")
let store = InMemoryAttributionStore()
let attribution = AppleAdsAttributionClient(
    tokens: DemoTokens(), transport: DemoAppleAdsAPI(), store: store, sleeper: DemoSleeper())
let record = try await attribution.attribution(trackingStatus: await prompt.value)
print(
    "  attributed: \(record.attributed), campaign \(record.campaign ?? 0), ad group \(record.adGroup ?? 0), clicked \(record.clickDate ?? "-")"
)
let again = try await attribution.attribution(trackingStatus: await prompt.value)
print("  asked again: \(again == record ? "the stored record, no request" : "a different record")")
