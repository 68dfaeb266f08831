import Foundation
import SkanFiles
import SkanPostbacks
import Testing

@testable import SkanReceiver

/// Forgeries of the right shape cannot fill the disk: past a quota of failed signatures an hour, postbacks of
/// that ad network and app are verified before they are stored; a genuine one is still stored.
@Suite struct UnverifiedQuotaTests {
    static let path = "/.well-known/skadnetwork/report-attribution/"

    /// Waits until the counter has counted everything acknowledged.
    static func counted(_ admin: LoopbackClient) throws {
        var metrics = try admin.exchange("GET", "/metrics")
        while !metrics.body.contains("skanc_postbacks_uncounted 0\n") {
            metrics = try admin.exchange("GET", "/metrics")
        }
    }

    @Test func pastTheQuotaForgeriesAreNotStoredAndGenuinePostbacksAre() throws {
        let running = try RunningReceiver {
            $0.unverifiedQuota?.perKey = 3
        }
        defer { running.stop() }
        let genuine = try exampleLines()[0]
        let text = String(decoding: genuine, as: UTF8.self)
        // Apple's example, another transaction id each time: the same ad network and app, signatures that fail.
        let forgeries = (0..<8).map { Array(text.replacingOccurrences(of: "6aafb7a5", with: "0000000\($0)").utf8) }
        let client = try LoopbackClient(port: running.port)
        let admin = try LoopbackClient(port: running.adminPort)
        for forgery in forgeries[..<4] { #expect(try client.exchange("POST", Self.path, body: forgery).status == 200) }
        try Self.counted(admin)
        // The fourth failure passed the quota of 3: now they are verified first.
        for forgery in forgeries[4...] { #expect(try client.exchange("POST", Self.path, body: forgery).status == 503) }
        #expect(try client.exchange("POST", Self.path, body: genuine).status == 200)
        try Self.counted(admin)
        let stored = try running.receiver.store.segments().flatMap { try DurableFiles.contents($0) }
        #expect(stored == (forgeries[..<4] + [genuine]).flatMap { $0 + [10] })
        let metrics = try admin.exchange("GET", "/metrics").body
        #expect(metrics.contains("skanc_bodies_refused_total{reason=\"unverified-past-quota\"} 4\n"), "\(metrics)")
    }

    /// The quota's key is the ad network as its JSON string means it: one spelled with escapes, a line break or
    /// a leading `=` (which a CSV cell writes otherwise) is gated like any other once past its quota.
    @Test(arguments: [#"=evil"#, #"ev\u0069l"#, #"evil\nnetwork"#, #"evil,\"network"#])
    func theQuotaGatesAnAdNetworkHoweverItIsSpelled(_ spelling: String) throws {
        let running = try RunningReceiver {
            $0.unverifiedQuota?.perKey = 2
        }
        defer { running.stop() }
        let text = String(decoding: try exampleLines()[0], as: UTF8.self)
            .replacingOccurrences(of: #""ad-network-id":"com.example""#, with: #""ad-network-id":"\#(spelling)""#)
        let forgeries = (0..<6).map { Array(text.replacingOccurrences(of: "6aafb7a5", with: "0000000\($0)").utf8) }
        let client = try LoopbackClient(port: running.port)
        let admin = try LoopbackClient(port: running.adminPort)
        for forgery in forgeries[..<3] { #expect(try client.exchange("POST", Self.path, body: forgery).status == 200) }
        try Self.counted(admin)
        for forgery in forgeries[3...] { #expect(try client.exchange("POST", Self.path, body: forgery).status == 503) }
    }

    @Test func theQuotaCountsPerKeyAndInAll() {
        var settings = UnverifiedQuota.Settings()
        settings.perKey = 2
        settings.total = 5
        var quota = UnverifiedQuota(settings)
        let a = UnverifiedQuota.Key(adNetwork: "a", app: "1")
        let b = UnverifiedQuota.Key(adNetwork: "b", app: "1")
        let hour = 1_700_000_000 / 3_600 * 3_600
        #expect(!quota.failed(a, now: hour) && !quota.failed(a, now: hour))
        #expect(quota.failed(a, now: hour + 1) && quota.gates.keys == [a] && !quota.gates.applies(to: b))
        #expect(!quota.failed(b, now: hour + 2) && !quota.failed(b, now: hour + 3))
        // The sixth failure passes the total: everything is verified first.
        #expect(quota.failed(b, now: hour + 4) && quota.gates.all)
        // A new hour starts afresh.
        #expect(!quota.failed(a, now: hour + 3_600) && quota.gates == UnverifiedQuota.Gates())
    }
}
