import Dispatch
import Foundation
import SkanCompiler
import SkanPostbacks
import SkanSchema
import SkanTestSupport

@testable import SkanReceiver

#if canImport(Glibc)
import Glibc
#endif

/// Apple's published example postbacks, one a line, and the first again: a duplicate to count.
func exampleLines() throws -> [[UInt8]] {
    let text = try Paths.text("Tests/Fixtures/apple-examples.jsonl")
    let lines = text.split(separator: "\n").map { Array($0.utf8) }
    return lines + [lines[0]]
}

/// What `skanc postbacks` makes of `lines` in one read: the figures the counter must reach.
func engineSummary(_ lines: [[UInt8]], versions: LiveVersions) throws -> PostbackSummary {
    let options = PostbackReader.Options {
        $0.threads = 1
        $0.writesRows = false
        $0.verification = PostbackVerification()
    }
    let reader = PostbackReader(versions: versions, options: options, output: DiscardedLines())
    var input = ByteArrayInput(lines.flatMap { $0 + [10] })
    try reader.read(&input, name: "engine")
    return reader.summary
}

/// Waits, on the pipe the threads wake, until `done` holds: no deadline, as the poll loop waits.
func waitForWake(_ wake: WakePipe, until done: () -> Bool) {
    while !done() {
        var descriptor = pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, -1)
        wake.drain()
    }
}

/// Every figure of a summary the receiver's metrics show.
func figures(_ summary: PostbackSummary) -> [String: Int] {
    var out = ["read": summary.read, "ok": summary.ok]
    for status in PostbackStatus.allCases { out[status.code] = summary.count(of: status) }
    for outcome in SignatureOutcome.allCases { out["signature " + outcome.rawValue] = summary.count(of: outcome) }
    return out
}

/// A receiver on free loopback ports (public and admin), run on a thread of its own until `stop()`.
final class RunningReceiver: @unchecked Sendable {
    let receiver: Receiver
    let directory: TemporaryDirectory
    let port: UInt16
    let adminPort: UInt16
    private let ended = DispatchSemaphore(value: 0)

    init(_ configure: (inout ReceiverConfiguration) -> Void = { _ in }) throws {
        directory = try TemporaryDirectory()
        var configuration = ReceiverConfiguration(data: directory.url.path + "/store", instance: "test")
        configuration.listen = "127.0.0.1:0"
        configuration.adminListen = "127.0.0.1:0"
        configure(&configuration)
        receiver = try Receiver(configuration)
        port = UInt16(receiver.publicAddress.split(separator: ":").last ?? "") ?? 0
        adminPort = UInt16(receiver.adminAddress?.split(separator: ":").last ?? "") ?? 0
        DispatchQueue.global().async { [self] in
            receiver.run(handlingSignals: false)
            ended.signal()
        }
    }

    func stop() {
        receiver.stop()
        ended.wait()
    }

    var store: String { directory.url.path + "/store" }
}
