import SkanHTTP

/// What one client may take of the receiver: connections at once, and requests a second on the public port
/// (answered 429 past it). A client is the connection's peer address, or, when that peer is a trusted proxy,
/// the address the proxy appended last to `X-Forwarded-For` (the one it saw; what the client itself wrote
/// there is further left and ignored). A trusted proxy's own connections are not capped: it carries everyone.
///
/// Devices post a handful of postbacks a day each, so the defaults leave room for thousands behind one carrier
/// address and still stop one address from taking every slot or every turn of the loop.
package struct ClientLimits {
    package struct Settings {
        package var connectionsPerClient = 64
        /// Requests a second a client may average on the public port, and the burst it may spend at once; 0: no
        /// limit.
        package var requestsPerSecond = 100.0
        package var burst = 200.0
        /// Peers whose `X-Forwarded-For` is believed.
        package var trustedProxies: Set<String> = ["127.0.0.1", "::1"]

        package init() {}
    }

    let settings: Settings
    private var open: [String: Int] = [:]
    private var buckets: [String: Bucket] = [:]
    /// Buckets kept at most; past it the full ones (idle clients) are forgotten, which costs them nothing.
    static let trackedClients = 1 << 16

    /// Tokens left, as of `updated`.
    private struct Bucket {
        var tokens: Double
        var updated: Double
    }

    init(_ settings: Settings) {
        self.settings = settings
    }

    func isTrustedProxy(_ peer: String) -> Bool { settings.trustedProxies.contains(peer) }

    /// Whether a new connection from `peer` may stay; if so it is counted until `closed(peer)`.
    mutating func admits(_ peer: String) -> Bool {
        if isTrustedProxy(peer) { return true }
        let count = open[peer, default: 0]
        guard count < settings.connectionsPerClient else { return false }
        open[peer] = count + 1
        return true
    }

    mutating func closed(_ peer: String) {
        guard !isTrustedProxy(peer), let count = open[peer] else { return }
        open[peer] = count > 1 ? count - 1 : nil
    }

    /// The client a request on a connection from `peer` is from: `peer`, or the last `X-Forwarded-For` address
    /// when `peer` is a trusted proxy (nil: a trusted proxy's own request, which no limit applies to).
    func client(of request: HTTPRequest, peer: String, peerIsTrusted: Bool) -> String? {
        guard peerIsTrusted else { return peer }
        let forwarded = request.headers.last { $0.name == "x-forwarded-for" }?.value
        guard let last = forwarded?.split(separator: ",").last else { return nil }
        let address = String(last.filter { $0 != " " && $0 != "\t" }.prefix(64))
        // The same host in another spelling (`::ffff:203.0.113.7`, `2001:DB8:0::1`) is the same client.
        return address.isEmpty ? nil : Listener.canonicalAddress(address) ?? address
    }

    /// Takes one request's token from `client`'s bucket; false when it is empty (answer 429).
    mutating func allowsRequest(from client: String, now: Double) -> Bool {
        guard settings.requestsPerSecond > 0 else { return true }
        var bucket = buckets[client] ?? Bucket(tokens: settings.burst, updated: now)
        bucket.tokens = min(settings.burst, bucket.tokens + (now - bucket.updated) * settings.requestsPerSecond)
        bucket.updated = now
        let allowed = bucket.tokens >= 1
        if allowed { bucket.tokens -= 1 }
        if buckets.count >= Self.trackedClients, buckets[client] == nil { forgetIdle(now: now) }
        buckets[client] = bucket
        return allowed
    }

    /// Forgets the buckets that have filled up again; when every client is busy, all of them (the limit then
    /// starts afresh rather than growing without bound).
    private mutating func forgetIdle(now: Double) {
        let rate = settings.requestsPerSecond
        buckets = buckets.filter { $0.value.tokens + (now - $0.value.updated) * rate < settings.burst }
        if buckets.count >= Self.trackedClients { buckets = [:] }
    }
}
