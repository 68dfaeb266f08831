public import Foundation
import SkanAppleAds
import SkanCore

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Gives AdServices attribution tokens (`AAAttribution.attributionToken()` on Apple platforms:
/// `SystemAttributionTokenSource`).
public protocol AttributionTokenSource: Sendable {
    /// A new token from AdServices; each is valid for 24 hours.
    func attributionToken() async throws -> String
}

/// What the attribution API answered: the client reads the status and the JSON body, nothing else.
public struct HTTPResponse: Sendable, Equatable {
    /// The HTTP status code (200, 400, 404, 500…).
    public var status: Int
    /// The body as received, JSON when the status is 200.
    public var body: Data

    /// An answer of `status` carrying `body`.
    public init(status: Int, body: Data) {
        self.status = status
        self.body = body
    }
}

/// Sends one POST; `URLSessionTransport` in apps, a fake in tests.
public protocol HTTPTransport: Sendable {
    /// POSTs `body` with `contentType` to `url` and returns the answer, whatever its status.
    func post(_ url: URL, body: Data, contentType: String) async throws -> HTTPResponse
}

/// Keeps the install's record, so that it is fetched once per tracking status.
public protocol AppleAdsAttributionStore: Sendable {
    /// The record fetched before, if any.
    func load() -> StoredAppleAdsAttribution?
    /// Keeps `record`.
    func save(_ record: StoredAppleAdsAttribution)
}

/// Foundation's URLSession (FoundationNetworking on Linux).
public struct URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let timeout: Double

    /// A transport over `session`, each request allowed `timeout` seconds. By default an ephemeral session: no
    /// cookies, cache or credentials are kept from Apple's answers.
    public init(session: URLSession? = nil, timeout: Double = 30) {
        if let session {
            self.session = session
        } else {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = timeout
            self.session = URLSession(configuration: configuration)
        }
        self.timeout = timeout
    }

    /// POSTs through a data task (available on every OS the package supports).
    public func post(_ url: URL, body: Data, contentType: String) async throws -> HTTPResponse {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        return try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let response = response as? HTTPURLResponse {
                    continuation.resume(returning: HTTPResponse(status: response.statusCode, body: data ?? Data()))
                } else {
                    continuation.resume(throwing: URLError(.badServerResponse))
                }
            }.resume()
        }
    }
}

/// The record in memory, for tests and platforms without UserDefaults persistence.
public final class InMemoryAttributionStore: AppleAdsAttributionStore, @unchecked Sendable {
    private let lock = NSLock()
    private var record: StoredAppleAdsAttribution?

    /// An empty store, or one holding `record`.
    public init(_ record: StoredAppleAdsAttribution? = nil) {
        self.record = record
    }

    /// The record kept, if any.
    public func load() -> StoredAppleAdsAttribution? { lock.withLock { record } }
    /// Keeps `record`.
    public func save(_ record: StoredAppleAdsAttribution) { lock.withLock { self.record = record } }
}

/// The record as JSON in UserDefaults under `key`.
public struct UserDefaultsAttributionStore: AppleAdsAttributionStore, @unchecked Sendable {
    private let defaults: UserDefaults
    private let key: String

    /// A store in `defaults` (the standard ones by default) under `key`.
    public init(defaults: UserDefaults = .standard, key: String = "skanc.appleAdsAttribution") {
        self.defaults = defaults
        self.key = key
    }

    /// The record kept, if any (nil when what is kept cannot be read). A record kept by an earlier release,
    /// without a status, reads as fetched under none.
    public func load() -> StoredAppleAdsAttribution? {
        guard let data = defaults.data(forKey: key) else { return nil }
        if let stored = try? JSONDecoder().decode(StoredAppleAdsAttribution.self, from: data) { return stored }
        return (try? JSONDecoder().decode(AppleAdsAttribution.self, from: data)).map {
            StoredAppleAdsAttribution(record: $0)
        }
    }

    /// Keeps `record`.
    public func save(_ record: StoredAppleAdsAttribution) {
        if let data = try? JSONEncoder().encode(record) { defaults.set(data, forKey: key) }
    }
}

/// A token source where AdServices does not exist: it always throws.
public struct UnavailableAttributionTokenSource: AttributionTokenSource {
    /// Thrown instead of a token.
    public struct Unavailable: Error, Sendable {
        /// The token source is not available on this platform or OS version.
        public init() {}
    }

    /// No tokens.
    public init() {}

    /// Throws `Unavailable`.
    public func attributionToken() async throws -> String { throw Unavailable() }
}

func defaultAttributionTokenSource() -> any AttributionTokenSource {
    #if canImport(AdServices) && os(iOS)
    SystemAttributionTokenSource()
    #else
    UnavailableAttributionTokenSource()
    #endif
}

func defaultAttributionStore() -> any AppleAdsAttributionStore {
    #if canImport(Darwin)
    UserDefaultsAttributionStore()
    #else
    InMemoryAttributionStore()
    #endif
}
