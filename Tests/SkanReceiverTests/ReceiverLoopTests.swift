import Dispatch
import Foundation
import SkanFiles
import SkanPostbacks
import SkanTestSupport
import Testing

@testable import SkanReceiver

/// The loop, the writer and the counter in one process (run under ThreadSanitizer in CI): clients on several
/// threads post at once; every postback is acknowledged, stored once, and counted.
@Suite struct ReceiverLoopTests {
    /// The receiver, handed to the thread that runs it; only `stop()` (a pipe write) is called from others.
    struct Running: @unchecked Sendable {
        let receiver: Receiver
    }

    @Test func concurrentClientsAreAcknowledgedStoredOnceAndCounted() throws {
        let directory = try TemporaryDirectory()
        var configuration = ReceiverConfiguration(data: directory.url.path, instance: "test")
        configuration.listen = "127.0.0.1:0"
        configuration.adminListen = "127.0.0.1:0"
        let receiver = try Receiver(configuration)
        let port = try #require(UInt16(receiver.publicAddress.split(separator: ":").last ?? ""))
        let adminPort = try #require(UInt16(receiver.adminAddress?.split(separator: ":").last ?? ""))
        let running = Running(receiver: receiver)
        let ended = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            running.receiver.run(handlingSignals: false)
            ended.signal()
        }

        let lines = try exampleLines()
        let clients = 4
        let rounds = 5
        let statuses = Statuses()
        DispatchQueue.concurrentPerform(iterations: clients) { client in
            guard let connection = try? LoopbackClient(port: port) else { return statuses.add(-1) }
            for round in 0..<rounds {
                let line = lines[(client + round) % lines.count]
                let path =
                    round.isMultiple(of: 2)
                    ? "/.well-known/skadnetwork/report-attribution/" : "/.well-known/appattribution/report-attribution"
                statuses.add((try? connection.exchange("POST", path, body: line).status) ?? -1)
            }
        }
        #expect(statuses.all == Array(repeating: 200, count: clients * rounds))
        // Apple's development-signed example is stored apart, in no figure.
        var check = PostbackShapeCheck()
        let development = (0..<clients).flatMap { client in (0..<rounds).map { lines[(client + $0) % lines.count] } }
            .count { line in
                guard case .postback(let sender) = check.check(line) else { return false }
                return sender.claimsDevelopment
            }

        // Counting runs behind the answers: /metrics waits for it (a few seconds at most,
        // then answers with what is left), so ask until nothing is left.
        let admin = try LoopbackClient(port: adminPort)
        var metrics = try admin.exchange("GET", "/metrics")
        while metrics.status == 200, !metrics.body.contains("skanc_postbacks_uncounted 0\n") {
            metrics = try admin.exchange("GET", "/metrics")
        }
        #expect(metrics.status == 200)
        let read = PostbackStatus.allCases.compactMap { status in
            metrics.body.split(separator: "\n").first {
                $0.hasPrefix("skanc_postbacks_by_status_total{status=\"\(status.code)\"} ")
            }
            .flatMap { Int($0.split(separator: " ").last ?? "") }
        }
        #expect(read.reduce(0, +) + development == clients * rounds, "\(metrics.body)")

        receiver.stop()
        ended.wait()
        #expect(development > 0 && metrics.body.contains("skanc_development_postbacks_stored_total \(development)\n"))
        let stored = try receiver.store.segments().flatMap { try DurableFiles.contents($0) }
        #expect(stored.count { $0 == 10 } == clients * rounds - development)
    }

    /// Answers gathered from the client threads.
    final class Statuses: @unchecked Sendable {
        private let lock = ConditionLock()
        private var values: [Int] = []

        func add(_ status: Int) { lock.holding { values.append(status) } }
        var all: [Int] { lock.holding { values } }
    }
}
