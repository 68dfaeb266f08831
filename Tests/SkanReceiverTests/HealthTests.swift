import Foundation
import Testing

@testable import SkanReceiver

/// `/healthz` tells the truth about the store: unhealthy while writes fail (so a load balancer sends elsewhere),
/// healthy again once the store takes writes; a store deleted under the receiver gets no 200 at all.
@Suite struct HealthTests {
    static let postbackPath = "/.well-known/skadnetwork/report-attribution/"

    @Test func unhealthyWhileWritesFailAndHealthyOnceTheyWork() throws {
        let running = try RunningReceiver()
        defer { running.stop() }
        let lines = try exampleLines()
        let client = try LoopbackClient(port: running.port)
        let admin = try LoopbackClient(port: running.adminPort)
        #expect(try admin.exchange("GET", "/healthz").status == 200)
        running.receiver.store.inject(failure: "No space left on device")
        #expect(try client.exchange("POST", Self.postbackPath, body: lines[0]).status == 503)
        let sick = try admin.exchange("GET", "/healthz")
        #expect(sick.status == 503 && sick.body.contains("No space left on device"), "\(sick)")
        // What an alert watches: the store not writable, and the bytes free on its file system.
        let metrics = try admin.exchange("GET", "/metrics").body
        #expect(metrics.contains("\nskanc_store_writable 0\n") && metrics.contains("\nskanc_store_available_bytes "))
        // The disk has room again and nothing is sent (the load balancer stopped): a probe write finds out.
        running.receiver.store.inject(failure: nil)
        var health = try admin.exchange("GET", "/healthz")
        while health.status != 200 { health = try admin.exchange("GET", "/healthz") }
        #expect(try client.exchange("POST", Self.postbackPath, body: lines[0]).status == 200)
        #expect(try admin.exchange("GET", "/metrics").body.contains("\nskanc_store_writable 1\n"))
    }

    @Test func aDeletedStoreIsUnhealthyAndGetsNo200() throws {
        let running = try RunningReceiver()
        defer { running.stop() }
        let lines = try exampleLines()
        let client = try LoopbackClient(port: running.port)
        let admin = try LoopbackClient(port: running.adminPort)
        #expect(try client.exchange("POST", Self.postbackPath, body: lines[0]).status == 200)
        try FileManager.default.removeItem(atPath: running.store)
        #expect(try client.exchange("POST", Self.postbackPath, body: lines[1]).status == 503)
        #expect(try admin.exchange("GET", "/healthz").status == 503)
        // Replaced by an empty folder of the same name: still not the store it opened.
        try FileManager.default.createDirectory(
            atPath: running.store + "/postbacks", withIntermediateDirectories: true)
        #expect(try client.exchange("POST", Self.postbackPath, body: lines[1]).status == 503)
        let health = try admin.exchange("GET", "/healthz")
        #expect(health.status == 503 && health.body.contains("deleted or replaced"), "\(health)")
    }
}
