public import Foundation
public import SkanAppleAds

/// Fetches the install's Apple Ads attribution once: a token from AdServices, POSTed as `text/plain` to
/// Apple's attribution API, the answer read into `AppleAdsAttribution` and kept, so that later calls (and
/// later launches) answer from the store. Apple's API answers 404 while the record is not ready, which
/// happens right after a token is issued: the client asks again, up to three attempts 5 seconds apart, as
/// Apple advises ("AdServices: attributionToken()"). A token lives 24 hours; each fetch takes a fresh one.
///
/// ```swift
/// let attribution = try await AppleAdsAttributionClient().attribution()
/// if attribution.attributed { print(attribution.campaign ?? 0) }
/// ```
public actor AppleAdsAttributionClient {
    /// Why no record was fetched.
    public enum Failure: Error, Sendable, Equatable {
        /// AdServices gave no token (not on this OS, no network, ...); the system's description.
        case token(String)
        /// The transport failed (no connection, ...); the description.
        case transport(String)
        /// Still 404 after the last attempt: try again later, with a new token.
        case notReady(attempts: Int)
        /// Apple refused the token (400): it is malformed or older than 24 hours.
        case invalidToken
        /// Another HTTP status.
        case status(Int)
        /// The answer is not an attribution record; the status `skanc attribution` would give it.
        case unreadable(String)
    }

    /// How the client talks to Apple.
    public struct Options: Sendable {
        /// Apple's attribution API.
        public var endpoint = URL(string: "https://api-adservices.apple.com/api/v1/")!
        /// Requests per fetch while Apple answers 404.
        public var attempts = 3
        /// Seconds between them.
        public var retryDelay: Double = 5

        /// Apple's endpoint and advice.
        public init() {}
    }

    private let tokens: any AttributionTokenSource
    private let transport: any HTTPTransport
    private let store: any AppleAdsAttributionStore
    private let sleeper: any Sleeper
    private let options: Options
    private var pending: Task<AppleAdsAttribution, any Error>?

    /// A client. By default: AdServices for tokens on Apple platforms, URLSession, UserDefaults under
    /// `skanc.appleAdsAttribution` (memory elsewhere), real sleeping.
    public init(
        tokens: (any AttributionTokenSource)? = nil, transport: (any HTTPTransport)? = nil,
        store: (any AppleAdsAttributionStore)? = nil, sleeper: any Sleeper = TaskSleeper(), options: Options = Options()
    ) {
        self.tokens = tokens ?? defaultAttributionTokenSource()
        self.transport = transport ?? URLSessionTransport()
        self.store = store ?? defaultAttributionStore()
        self.sleeper = sleeper
        self.options = options
    }

    /// The install's record: from the store when it was fetched before, else fetched now (concurrent
    /// callers share one fetch) and stored.
    public func attribution() async throws(Failure) -> AppleAdsAttribution {
        if let stored = store.load() { return stored }
        let task = pending ?? Task { try await fetch() }
        pending = task
        do {
            let record = try await task.value
            pending = nil
            store.save(record)
            return record
        } catch {
            pending = nil
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
        for attempt in 1...max(1, options.attempts) {
            let response: HTTPResponse
            do {
                response = try await transport.post(options.endpoint, body: Data(token.utf8), contentType: "text/plain")
            } catch {
                throw .transport("\(error)")
            }
            switch response.status {
            case 200:
                do {
                    return try AppleAdsAttribution(json: response.body)
                } catch {
                    throw .unreadable(error.code)
                }
            case 404 where attempt < options.attempts:
                do { try await sleeper.sleep(seconds: options.retryDelay) } catch { throw .notReady(attempts: attempt) }
            case 404: throw .notReady(attempts: attempt)
            case 400: throw .invalidToken
            default: throw .status(response.status)
            }
        }
        throw .notReady(attempts: options.attempts)
    }
}
