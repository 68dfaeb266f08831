public import Foundation
public import SkanAppleAds
public import SkanCore

/// Fetches the install's Apple Ads attribution: a token from AdServices, POSTed as `text/plain` to Apple's
/// attribution API, the answer read into `AppleAdsAttribution` and kept, so that later calls (and later
/// launches) answer from the store. Apple answers 404 while the record is not ready, which happens right after
/// a token is issued, and for a token older than its 24 hours: the client asks again, up to three attempts
/// 5 seconds apart, as Apple advises ("AdServices: attributionToken()"). A failed connection and a 5xx answer
/// are retried too, with a delay that doubles. Each fetch takes a fresh token.
///
/// Apple issues a new token when the tracking status changes: pass the status you have, and a record fetched under
/// another status is fetched again. The sample record a development build gets (`AppleAdsAttribution.isSample`) is
/// returned but never stored, so a release build's first call fetches the real one.
///
/// ```swift
/// let attribution = try await AppleAdsAttributionClient().attribution(trackingStatus: await tracking.status())
/// if attribution.attributed { print(attribution.campaign ?? 0) }
/// ```
public actor AppleAdsAttributionClient {
    /// Why no record was fetched.
    public enum Failure: Error, Sendable, Equatable {
        /// AdServices gave no token (not on this OS, no network, ...); the system's description.
        case token(String)
        /// The transport failed on the last attempt (no connection, a timeout, ...); the description.
        case transport(String)
        /// Still 404 after the last attempt: the record is not ready, or the token expired; try again later, with a
        /// new token.
        case notReady(attempts: Int)
        /// Apple refused the token as malformed (400).
        case invalidToken
        /// Another HTTP status (a 5xx after the last attempt).
        case status(Int)
        /// The answer is not an attribution record; the status `skanc attribution` would give it.
        case unreadable(String)
    }

    /// How the client talks to Apple.
    public struct Options: Sendable {
        /// Apple's attribution API.
        public var endpoint = URL(string: "https://api-adservices.apple.com/api/v1/")!
        /// Requests per fetch while Apple answers 404, a 5xx, or no connection.
        public var attempts = 3
        /// Seconds between attempts after a 404 (Apple's advice: 5).
        public var retryDelay: Double = 5
        /// Seconds before the second attempt after a failed connection or a 5xx; doubled before each later one.
        public var backoff: Double = 2
        /// Seconds a request may take.
        public var requestTimeout: Double = 30

        /// Apple's endpoint and advice.
        public init() {}
    }

    private let tokens: any AttributionTokenSource
    private let transport: any HTTPTransport
    private let store: any AppleAdsAttributionStore
    private let sleeper: any Sleeper
    private let options: Options
    private var pending: (status: TrackingAuthorizationStatus?, task: Task<AppleAdsAttribution, any Error>)?

    /// A client. By default: AdServices for tokens on Apple platforms, an ephemeral URLSession with
    /// `options.requestTimeout`, UserDefaults under `skanc.appleAdsAttribution` (memory elsewhere), real sleeping.
    public init(
        tokens: (any AttributionTokenSource)? = nil, transport: (any HTTPTransport)? = nil,
        store: (any AppleAdsAttributionStore)? = nil, sleeper: any Sleeper = TaskSleeper(), options: Options = Options()
    ) {
        self.tokens = tokens ?? defaultAttributionTokenSource()
        self.transport = transport ?? URLSessionTransport(timeout: options.requestTimeout)
        self.store = store ?? defaultAttributionStore()
        self.sleeper = sleeper
        self.options = options
    }

    /// The install's record: from the store when it was fetched before under `trackingStatus` (or, with nil,
    /// under any status), else fetched now (concurrent callers share one fetch) and stored with the status.
    public func attribution(trackingStatus: TrackingAuthorizationStatus? = nil) async throws(Failure)
        -> AppleAdsAttribution
    {
        if let stored = store.load(), trackingStatus == nil || stored.trackingStatus == trackingStatus {
            return stored.record
        }
        let task: Task<AppleAdsAttribution, any Error>
        if let pending, pending.status == trackingStatus {
            task = pending.task
        } else {
            task = Task { try await fetch() }
            pending = (trackingStatus, task)
        }
        do {
            let record = try await task.value
            if pending?.task == task { pending = nil }
            if !record.isSample {
                store.save(StoredAppleAdsAttribution(record: record, trackingStatus: trackingStatus))
            }
            return record
        } catch {
            if pending?.task == task { pending = nil }
            throw error as? Failure ?? .transport("\(error)")
        }
    }

    private func fetch() async throws(Failure) -> AppleAdsAttribution {
        let token: String
        do {
            token = try await tokens.attributionToken()
        } catch {
            throw .token("\(error)")
        }
        let attempts = max(1, options.attempts)
        var backoff = options.backoff
        for attempt in 1...attempts {
            let last = attempt == attempts
            let response: HTTPResponse
            do {
                response = try await transport.post(options.endpoint, body: Data(token.utf8), contentType: "text/plain")
            } catch {
                if last { throw .transport("\(error)") }
                try await wait(backoff, failing: .transport("\(error)"))
                backoff *= 2
                continue
            }
            switch response.status {
            case 200:
                do {
                    return try AppleAdsAttribution(json: response.body)
                } catch {
                    throw .unreadable(error.code)
                }
            case 404 where !last: try await wait(options.retryDelay, failing: .notReady(attempts: attempt))
            case 404: throw .notReady(attempts: attempt)
            case 400: throw .invalidToken
            case 500...599 where !last:
                try await wait(backoff, failing: .status(response.status))
                backoff *= 2
            default: throw .status(response.status)
            }
        }
        throw .notReady(attempts: attempts)
    }

    /// Sleeps `seconds`; a cancelled wait ends the fetch with `failure`.
    private func wait(_ seconds: Double, failing failure: Failure) async throws(Failure) {
        do { try await sleeper.sleep(seconds: seconds) } catch { throw failure }
    }
}

/// A record as the store keeps it: with the tracking status it was fetched under.
public struct StoredAppleAdsAttribution: Sendable, Equatable, Codable {
    /// The attribution record as the API answered it.
    public var record: AppleAdsAttribution
    /// The status the app passed when it was fetched; nil when it passed none.
    public var trackingStatus: TrackingAuthorizationStatus?

    /// A record fetched under `trackingStatus`.
    public init(record: AppleAdsAttribution, trackingStatus: TrackingAuthorizationStatus? = nil) {
        self.record = record
        self.trackingStatus = trackingStatus
    }
}
