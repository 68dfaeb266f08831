import Foundation
import SkanPostbacks
import SkanTestSupport
import Testing

@testable import SkanReceiver

@Suite struct IntakeCounterTests {
    /// Read back in chunks smaller than a line, of a few lines, and of everything: the same figures as the
    /// engine over the same lines, duplicates across batches included.
    @Test(arguments: [64, 700, 4 << 20])
    func countsWhatTheEngineCountsReadingWholeLinesBack(_ chunkBytes: Int) throws {
        let directory = try TemporaryDirectory()
        let store = try PostbackStore(directory: directory.url.path, instance: "test")
        let lines = try exampleLines()
        let wake = try WakePipe()
        let counter = IntakeCounter(
            versions: Receiver.anyValue, verification: PostbackVerification(), wake: wake, chunkBytes: chunkBytes)
        counter.start(yieldingTo: nil)
        defer { counter.stop() }
        let thirds = [lines[..<2], lines[2..<5], lines[5...]].map(Array.init)
        for (ticket, batch) in thirds.enumerated() {
            let range = try #require(try store.append(batch, receivedAt: 1_700_000_000))
            counter.add(range, through: ticket + 1)
        }
        waitForWake(wake) { counter.progress.countedThrough == thirds.count }
        let counted = figures(counter.progress.summary)
        #expect(counted == figures(try engineSummary(lines, versions: Receiver.anyValue)))
        // Apple's 2.2 and 3.0 examples share a transaction id, and the first line comes again in the last batch.
        #expect(counted["read"] == lines.count && counted["duplicate"] == 2, "\(counted.sorted { $0.key < $1.key })")
    }

    /// Adjacent ranges wait as one: a counter behind a burst holds byte ranges, not postbacks.
    @Test func adjacentRangesAreJoined() throws {
        let directory = try TemporaryDirectory()
        let store = try PostbackStore(directory: directory.url.path, instance: "test")
        let lines = try exampleLines()
        let first = try #require(try store.append(Array(lines[..<2]), receivedAt: 1_700_000_000))
        let second = try #require(try store.append(Array(lines[2...]), receivedAt: 1_700_000_000))
        #expect(first.path == second.path && first.end == second.start)
        var waiting: [IntakeCounter.Pending] = []
        IntakeCounter.join(IntakeCounter.Pending(range: first, through: 1), into: &waiting)
        IntakeCounter.join(IntakeCounter.Pending(range: second, through: 2), into: &waiting)
        let joined = PostbackStore.StoredRange(path: first.path, start: first.start, end: second.end)
        #expect(waiting == [IntakeCounter.Pending(range: joined, through: 2)])
        let elsewhere = PostbackStore.StoredRange(path: first.path + ".other", start: 0, end: 10)
        IntakeCounter.join(IntakeCounter.Pending(range: elsewhere, through: 3), into: &waiting)
        #expect(waiting.count == 2)
    }

    /// A segment that cannot be read back is not skipped in silence: the progress says how much is missing and
    /// where, and what could be read is counted.
    @Test func aSegmentThatCannotBeReadIsSaidToBeMissing() throws {
        let directory = try TemporaryDirectory()
        let store = try PostbackStore(directory: directory.url.path, instance: "test")
        let lines = try exampleLines()
        let wake = try WakePipe()
        let counter = IntakeCounter(versions: Receiver.anyValue, verification: PostbackVerification(), wake: wake)
        counter.start(yieldingTo: nil)
        defer { counter.stop() }
        let gone = PostbackStore.StoredRange(path: directory.url.path + "/gone.jsonl", start: 0, end: 500)
        counter.add(gone, through: 1)
        let range = try #require(try store.append(lines, receivedAt: 1_700_000_000))
        counter.add(range, through: 2)
        waitForWake(wake) { counter.progress.countedThrough == 2 }
        let progress = counter.progress
        #expect(progress.unreadableBytes == 500)
        #expect(progress.unreadableSegments == [gone.path])
        #expect(progress.summary.read == lines.count)
        let text = ReceiverMetrics().text(summary: progress.summary, unreadableBytes: progress.unreadableBytes)
        #expect(text.contains("skanc_store_unreadable_bytes 500\n"))
    }
}
