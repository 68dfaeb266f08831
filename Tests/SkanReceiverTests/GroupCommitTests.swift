import Foundation
import SkanFiles
import SkanPostbacks
import SkanTestSupport
import Testing

@testable import SkanReceiver

@Suite struct GroupCommitTests {
    /// Batches handed over come back durable in the order given, the segment holds their lines in that order,
    /// and the counter counts through the last.
    @Test func batchesAreDurableInOrderAndThenCounted() throws {
        let directory = try TemporaryDirectory()
        let store = try PostbackStore(directory: directory.url.path, instance: "test")
        let lines = try exampleLines()
        let wake = try WakePipe()
        let counter = IntakeCounter(versions: Receiver.anyValue, verification: PostbackVerification(), wake: wake)
        let committer = GroupCommit(store: store, counter: counter, wake: wake)
        counter.start(yieldingTo: committer)
        var tickets: [Int] = []
        for line in lines { tickets.append(committer.submit([line])) }
        var outcomes: [GroupCommit.Outcome] = []
        waitForWake(wake) {
            outcomes += committer.finished()
            return outcomes.count == lines.count && counter.progress.countedThrough == tickets.last
        }
        committer.stop()
        counter.stop()
        #expect(outcomes.map(\.ticket) == tickets)
        #expect(outcomes.allSatisfy { $0.durable })
        // One fsync sample per group: never more samples than batches, at least one.
        let samples = outcomes.compactMap(\.syncSeconds).count
        #expect(samples >= 1 && samples <= lines.count)
        let stored = try store.segments().flatMap { try DurableFiles.contents($0) }
        #expect(stored == lines.flatMap { $0 + [10] })
        #expect(figures(counter.progress.summary) == figures(try engineSummary(lines, versions: Receiver.anyValue)))
    }
}
