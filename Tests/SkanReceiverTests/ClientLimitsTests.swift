import SkanHTTP
import Testing

@testable import SkanReceiver

/// Who a client is, and what one may take: connections at once and requests a second; a trusted proxy's
/// `X-Forwarded-For` names the client, whatever spelling of the address it writes.
@Suite struct ClientLimitsTests {
    static func request(forwardedFor: String?) -> HTTPRequest {
        var parser = HTTPRequestParser()
        let header = forwardedFor.map { "X-Forwarded-For: \($0)\r\n" } ?? ""
        parser.feed(Array("GET / HTTP/1.1\r\nHost: a\r\n\(header)\r\n".utf8))
        guard case .request(let request)? = parser.next() else { fatalError("the request did not parse") }
        return request
    }

    @Test func addressesHaveOneSpelling() {
        #expect(Listener.canonicalAddress("0:0:0:0:0:0:0:1") == "::1")
        #expect(Listener.canonicalAddress("2001:DB8:0:0::1") == "2001:db8::1")
        #expect(Listener.canonicalAddress("::ffff:127.0.0.1") == "127.0.0.1")
        #expect(Listener.canonicalAddress("127.0.0.1") == "127.0.0.1")
        #expect(Listener.canonicalAddress("localhost") == nil)
        #expect(Listener.canonicalAddress("1.2.3.4.5") == nil)
    }

    @Test func theProxysLastForwardedAddressIsTheClient() {
        let limits = ClientLimits(ClientLimits.Settings())
        let request = Self.request(forwardedFor: "10.0.0.1, ::FFFF:203.0.113.7")
        #expect(limits.client(of: request, peer: "127.0.0.1", peerIsTrusted: true) == "203.0.113.7")
        // From anyone else the header is the client's own word: the peer is the client.
        #expect(limits.client(of: request, peer: "198.51.100.2", peerIsTrusted: false) == "198.51.100.2")
        // A proxy's own request (no header) is no client's.
        #expect(limits.client(of: Self.request(forwardedFor: nil), peer: "127.0.0.1", peerIsTrusted: true) == nil)
    }

    @Test func connectionsPerClientAreCappedExceptForTrustedProxies() {
        var settings = ClientLimits.Settings()
        settings.connectionsPerClient = 2
        var limits = ClientLimits(settings)
        let first = limits.admits("198.51.100.2")
        let second = limits.admits("198.51.100.2")
        let third = limits.admits("198.51.100.2")
        #expect(first && second && !third)
        limits.closed("198.51.100.2")
        let again = limits.admits("198.51.100.2")
        #expect(again)
        let proxy = (0..<10).map { _ in limits.admits("127.0.0.1") }
        #expect(proxy.allSatisfy { $0 })
    }

    @Test func requestsPastTheRateWaitForTheBucketToRefill() {
        var settings = ClientLimits.Settings()
        settings.requestsPerSecond = 10
        settings.burst = 20
        var limits = ClientLimits(settings)
        let allowed = (0..<25).count { _ in limits.allowsRequest(from: "198.51.100.2", now: 100) }
        #expect(allowed == 20)
        let other = limits.allowsRequest(from: "198.51.100.3", now: 100)
        // A quarter of a second refills two and a half tokens at 10 a second.
        let refilled = (0..<3).map { _ in limits.allowsRequest(from: "198.51.100.2", now: 100.25) }
        #expect(other && refilled == [true, true, false])
    }
}
