import Foundation
import SkanAppleAdsClient
import SkanCore
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Tokens in order, or a failure.
actor FakeTokens: AttributionTokenSource {
    private(set) var issued = 0
    let fails: Bool
    init(fails: Bool = false) { self.fails = fails }
    func attributionToken() async throws -> String {
        if fails { throw UnavailableAttributionTokenSource.Unavailable() }
        issued += 1
        return "token-\(issued)"
    }
}

/// Answers from a list of statuses (the last repeats), recording each request.
actor FakeTransport: HTTPTransport {
    struct Request: Equatable {
        var url: URL
        var body: String
        var contentType: String
    }
    private let statuses: [Int]
    private let answer: Data
    private(set) var requests: [Request] = []

    init(_ statuses: [Int], answer: Data = AttributionFixtures.adServicesAnswer) {
        (self.statuses, self.answer) = (statuses, answer)
    }

    /// A status of 0 stands for a failed connection.
    func post(_ url: URL, body: Data, contentType: String) async throws -> HTTPResponse {
        requests.append(Request(url: url, body: String(decoding: body, as: UTF8.self), contentType: contentType))
        let status = statuses[min(requests.count - 1, statuses.count - 1)]
        if status == 0 { throw URLError(.notConnectedToInternet) }
        return HTTPResponse(status: status, body: status == 200 ? answer : Data())
    }
}

/// Records the waits instead of waiting.
actor RecordingSleeper: Sleeper {
    private(set) var waits: [Double] = []
    func sleep(seconds: Double) async throws { waits.append(seconds) }
}

enum AttributionFixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let adServicesAnswer = try! Data(
        contentsOf: root.appendingPathComponent("Tests/Fixtures/attribution/adservices-answer.json"))
    static let expected = AppleAdsAttribution(
        source: .adServices, attributed: true, organization: 40_669_820, campaign: 542_370_539, adGroup: 542_317_095,
        keyword: 87_675_432, ad: 542_317_136, clickDate: "2020-04-08T17:17:00Z", countryOrRegion: "US",
        conversionType: "Download", claimType: "Click")
}

@Suite struct AppleAdsAttributionClientTests {
    @Test func a404RightAfterTheTokenIsRetriedFiveSecondsLater() async throws {
        let (tokens, transport, sleeper, store) = (
            FakeTokens(), FakeTransport([404, 404, 200]), RecordingSleeper(), InMemoryAttributionStore()
        )
        let client = AppleAdsAttributionClient(tokens: tokens, transport: transport, store: store, sleeper: sleeper)
        #expect(try await client.attribution() == AttributionFixtures.expected)
        let requests = await transport.requests
        #expect(requests.count == 3)
        #expect(requests.allSatisfy { $0.contentType == "text/plain" && $0.body == "token-1" })
        #expect(requests.first?.url.absoluteString == "https://api-adservices.apple.com/api/v1/")
        #expect(await sleeper.waits == [5, 5])
        #expect(store.load()?.record == AttributionFixtures.expected)
    }

    @Test func theRecordIsFetchedOncePerInstall() async throws {
        let (transport, store) = (FakeTransport([200]), InMemoryAttributionStore())
        let client = AppleAdsAttributionClient(
            tokens: FakeTokens(), transport: transport, store: store, sleeper: RecordingSleeper())
        async let first = client.attribution()
        async let second = client.attribution()
        #expect(try await [first, second] == [AttributionFixtures.expected, AttributionFixtures.expected])
        // A later launch reads the store.
        let relaunched = AppleAdsAttributionClient(
            tokens: FakeTokens(), transport: transport, store: store, sleeper: RecordingSleeper())
        #expect(try await relaunched.attribution() == AttributionFixtures.expected)
        #expect(await transport.requests.count == 1)
    }

    @Test func theSampleRecordOfADevelopmentBuildIsNeverStored() async throws {
        // What AdServices answers a development build: Apple's sample, every identifier 1234567890.
        let sample = Data(
            #"{"attribution":true,"orgId":1234567890,"campaignId":1234567890,"conversionType":"Download","clickDate":"2020-04-08T17:17Z","claimType":"Click","adGroupId":1234567890,"countryOrRegion":"US","keywordId":12323222,"adId":1234567890}"#
                .utf8)
        let (transport, store) = (FakeTransport([200], answer: sample), InMemoryAttributionStore())
        let client = AppleAdsAttributionClient(
            tokens: FakeTokens(), transport: transport, store: store, sleeper: RecordingSleeper())
        let record = try await client.attribution()
        #expect(record.isSample && record.campaign == AppleAdsAttribution.sampleIdentifier)
        #expect(store.load() == nil)
        // The next call asks again, so a release build's real record is the one kept.
        _ = try await client.attribution()
        #expect(await transport.requests.count == 2)
        #expect(!AttributionFixtures.expected.isSample)
        #expect(!AppleAdsAttribution(source: .adServices, attributed: false).isSample)
    }

    @Test func threeNotFoundsGiveUpAndStoreNothing() async throws {
        let (transport, sleeper, store) = (FakeTransport([404]), RecordingSleeper(), InMemoryAttributionStore())
        let client = AppleAdsAttributionClient(
            tokens: FakeTokens(), transport: transport, store: store, sleeper: sleeper)
        await #expect(throws: AppleAdsAttributionClient.Failure.notReady(attempts: 3)) {
            try await client.attribution()
        }
        #expect(await transport.requests.count == 3)
        #expect(await sleeper.waits == [5, 5])
        #expect(store.load()?.record == nil)
    }

    @Test func otherAnswersAndATokenFailureAreReported() async throws {
        for (statuses, failure) in [
            ([400], AppleAdsAttributionClient.Failure.invalidToken), ([500], .status(500)),
        ] {
            let client = AppleAdsAttributionClient(
                tokens: FakeTokens(), transport: FakeTransport(statuses), store: InMemoryAttributionStore(),
                sleeper: RecordingSleeper())
            await #expect(throws: failure) { try await client.attribution() }
        }
        let unreadable = AppleAdsAttributionClient(
            tokens: FakeTokens(), transport: FakeTransport([200], answer: Data("{\"attribution\":\"yes\"}".utf8)),
            store: InMemoryAttributionStore(), sleeper: RecordingSleeper())
        await #expect(throws: AppleAdsAttributionClient.Failure.unreadable("wrong-type")) {
            try await unreadable.attribution()
        }
        let noToken = AppleAdsAttributionClient(
            tokens: FakeTokens(fails: true), transport: FakeTransport([200]), store: InMemoryAttributionStore(),
            sleeper: RecordingSleeper())
        let error = await #expect(throws: AppleAdsAttributionClient.Failure.self) { try await noToken.attribution() }
        guard case .token = error else {
            Issue.record("expected a token failure, got \(String(describing: error))")
            return
        }
    }

    @Test func failedConnectionsAnd5xxAreRetriedWithADoublingDelay() async throws {
        for statuses in [[0, 503, 200], [503, 0, 200]] {
            let (transport, sleeper) = (FakeTransport(statuses), RecordingSleeper())
            let client = AppleAdsAttributionClient(
                tokens: FakeTokens(), transport: transport, store: InMemoryAttributionStore(), sleeper: sleeper)
            #expect(try await client.attribution() == AttributionFixtures.expected)
            #expect(await sleeper.waits == [2, 4], "\(statuses)")
        }
        let (down, sleeper) = (FakeTransport([0]), RecordingSleeper())
        let client = AppleAdsAttributionClient(
            tokens: FakeTokens(), transport: down, store: InMemoryAttributionStore(), sleeper: sleeper)
        let error = await #expect(throws: AppleAdsAttributionClient.Failure.self) { try await client.attribution() }
        guard case .transport = error else {
            Issue.record("expected a transport failure, got \(String(describing: error))")
            return
        }
        #expect(await down.requests.count == 3)
        #expect(await sleeper.waits == [2, 4])
    }

    @Test func aChangedTrackingStatusFetchesANewRecordWithANewToken() async throws {
        let (tokens, transport, store) = (FakeTokens(), FakeTransport([200]), InMemoryAttributionStore())
        let client = AppleAdsAttributionClient(
            tokens: tokens, transport: transport, store: store, sleeper: RecordingSleeper())
        _ = try await client.attribution(trackingStatus: .notDetermined)
        _ = try await client.attribution(trackingStatus: .notDetermined)
        #expect(await transport.requests.map(\.body) == ["token-1"])
        // Authorized: Apple issues a new token and answers with the detailed fields.
        _ = try await client.attribution(trackingStatus: .authorized)
        #expect(await transport.requests.map(\.body) == ["token-1", "token-2"])
        #expect(store.load()?.trackingStatus == .authorized)
        // No status given: whatever was stored.
        _ = try await client.attribution()
        #expect(await transport.requests.count == 2)
    }

    /// URLSession against a real HTTP server on 127.0.0.1 that answers 404 and then 200.
    @Test func urlSessionTalksToARealServerOnLoopback() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "skanc-attribution-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try AttributionFixtures.adServicesAnswer.write(to: directory.appendingPathComponent("answer.json"))
        let server = try await LoopbackServer.start(
            script: AttributionFixtures.root.appendingPathComponent("Tests/Scripts/attribution_server.py"),
            arguments: [directory.path, "404,200"])
        defer { server.stop() }
        let port = server.port
        var options = AppleAdsAttributionClient.Options()
        options.endpoint = URL(string: "http://127.0.0.1:\(port)/api/v1/")!
        options.retryDelay = 0.05
        let client = AppleAdsAttributionClient(
            tokens: FakeTokens(), transport: URLSessionTransport(), store: InMemoryAttributionStore(), options: options)
        #expect(try await client.attribution() == AttributionFixtures.expected)
        let log = try String(contentsOf: directory.appendingPathComponent("requests"), encoding: .utf8)
            .split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: String] }
        #expect(log.count == 2)
        #expect(
            log.allSatisfy { $0["path"] == "/api/v1/" && $0["content_type"] == "text/plain" && $0["body"] == "token-1" }
        )
    }
}

@Suite struct AppleAdsAttributionReadingTests {
    @Test func readsAppleAdServicesAnswer() throws {
        #expect(try AppleAdsAttribution(json: AttributionFixtures.adServicesAnswer) == AttributionFixtures.expected)
        let organic = try AppleAdsAttribution(json: Data(#"{"attribution":false}"#.utf8))
        #expect(organic == AppleAdsAttribution(source: .adServices, attributed: false))
    }

    @Test func readsIAdDictionariesWithStringsAndTheVersionWrapper() throws {
        // The iAd framework's 3.1 answer, as its sample data printed it (every value a string).
        let legacy =
            #"{"Version3.1":{"iad-attribution":"true","iad-campaign-id":"1234567890","iad-campaign-name":"CampaignName","iad-click-date":"2016-09-29T11:25:08Z","iad-conversion-date":"2016-09-29T11:25:08Z","iad-creative-id":"1234567890","iad-lineitem-id":"1234567890","iad-org-name":"OrgName"}}"#
        #expect(
            try AppleAdsAttribution(json: Data(legacy.utf8))
                == AppleAdsAttribution(
                    source: .iAd, attributed: true, campaign: 1_234_567_890, adGroup: 1_234_567_890, ad: 1_234_567_890,
                    clickDate: "2016-09-29T11:25:08Z"))
        let typed =
            #"{"iad-attribution":true,"iad-org-id":7,"iad-adgroup-id":3,"iad-keyword-id":4,"iad-creativeset-id":5,"iad-country-or-region":"DE","iad-conversion-type":"Redownload","iad-click-date":"2019-01-01T00:30:00.250+01:00"}"#
        #expect(
            try AppleAdsAttribution(json: Data(typed.utf8))
                == AppleAdsAttribution(
                    source: .iAd, attributed: true, organization: 7, adGroup: 3, keyword: 4, ad: 5,
                    clickDate: "2018-12-31T23:30:00Z", countryOrRegion: "DE", conversionType: "Redownload"))
    }

    @Test func readsEveryFieldAppleDocuments() throws {
        // An impression claim with tracking authorized, on a device before iOS 15.2 (a creative set, no ad).
        let answer =
            #"{"attribution":true,"orgId":1,"campaignId":2,"adGroupId":3,"keywordId":4,"creativeSetId":5,"conversionType":"PreOrder","claimType":"Impression","impressionDate":"2025-03-01T08:30Z","supplyPlacement":"APPSTORE_TODAY_TAB","countryOrRegion":"JP"}"#
        #expect(
            try AppleAdsAttribution(json: Data(answer.utf8))
                == AppleAdsAttribution(
                    source: .adServices, attributed: true, organization: 1, campaign: 2, adGroup: 3, keyword: 4,
                    countryOrRegion: "JP", conversionType: "PreOrder", claimType: "Impression",
                    impressionDate: "2025-03-01T08:30:00Z", supplyPlacement: "APPSTORE_TODAY_TAB", creativeSet: 5))
        #expect(throws: AppleAdsAttribution.ReadingError(code: "bad-date", key: "impressionDate")) {
            try AppleAdsAttribution(json: Data(#"{"attribution":true,"impressionDate":"soon"}"#.utf8))
        }
    }

    @Test func saysWhatIsWrong() {
        for (text, code, key) in [
            ("nope", "not-json", nil), ("[1]", "not-object", nil), (#"{"x":1}"#, "unknown-format", nil),
            (#"{"iad-campaign-id":1}"#, "missing-field", "iad-attribution"),
            (#"{"attribution":true,"campaignId":"12"}"#, "wrong-type", "campaignId"),
            (#"{"attribution":1}"#, "wrong-type", "attribution"),
            (#"{"attribution":true,"clickDate":"yesterday"}"#, "bad-date", "clickDate"),
            (#"{"attribution":true,"clickDate":"2021-02-29T10:00Z"}"#, "bad-date", "clickDate"),
        ] as [(String, String, String?)] {
            #expect(throws: AppleAdsAttribution.ReadingError(code: code, key: key)) {
                try AppleAdsAttribution(json: Data(text.utf8))
            }
        }
    }
}
