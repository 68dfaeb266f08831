import Foundation
import SkanFiles
import SkanPostbacks
import SkanTestSupport
import Testing

@testable import SkanReceiver

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct PostbackStoreTests {
    /// Receipt times are fsync'ed with the first batch of each second only; every batch still gets a time a
    /// line.
    @Test func receiptTimesAreMadeDurableOncePerSecond() throws {
        let directory = try TemporaryDirectory()
        let store = try PostbackStore(directory: directory.url.path, instance: "test")
        let lines = try exampleLines()
        let seconds = [1_700_000_000, 1_700_000_000, 1_700_000_000, 1_700_000_001, 1_700_000_001, 1_700_000_000]
        for (line, second) in zip(lines, seconds) { try store.append([line], receivedAt: second) }
        // A new segment's first batch, the change to ...001, and the step back to ...000.
        #expect(store.receiptTimeSyncs == 3)
        let segment = try #require(store.segments().first)
        let times = ReceiptTimes(try DurableFiles.contents(ReceiptTimes.path(besides: segment)!))
        #expect(times.seconds == seconds.map(Optional.some))
    }

    /// After a power loss the `.times` file may end before its segment (the times of batches that shared the
    /// last durable second were not fsync'ed), or with a torn time, or hold times of a batch cut off: recovery
    /// makes it one time a line, the missing ones that second.
    @Test(arguments: [
        ("1700000000\n", 3, "1700000000\n1700000000\n1700000000\n"),
        ("1700000000\n1700000001\n170000", 3, "1700000000\n1700000001\n1700000001\n"),
        ("1700000000\n1700000001\n1700000001\n1700000002\n", 2, "1700000000\n1700000001\n"),
        ("1700000000\n1700000001\n", 2, "1700000000\n1700000001\n"),
        // No whole time at all: a crash between the first batch's data and its times; the segment's name gives
        // that batch's second.
        ("", 2, "1700000000\n1700000000\n"),
        ("17000", 1, "1700000000\n"),
    ])
    func recoveryCompletesTheReceiptTimes(times: String, lines: Int, recovered: String) throws {
        let directory = try TemporaryDirectory()
        let folder = directory.url.appendingPathComponent("postbacks/2023-11-14")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let segment = folder.appendingPathComponent("test-20231114T221320Z-1.jsonl")
        let example = try #require(try exampleLines().first)
        try Data(Array(repeatElement(example + [10], count: lines).joined())).write(to: segment)
        let timesURL = URL(fileURLWithPath: ReceiptTimes.path(besides: segment.path)!)
        try Data(times.utf8).write(to: timesURL)
        let store = try PostbackStore(directory: directory.url.path, instance: "test")
        #expect(try store.recover().isEmpty)
        #expect(try String(contentsOf: timesURL, encoding: .utf8) == recovered)
    }

    /// Another receiver sharing the store may be writing its segment right now: recovery neither cuts its torn
    /// tail nor touches its times, and counts its whole lines only.
    @Test func anotherInstancesSegmentIsLeftAlone() throws {
        let directory = try TemporaryDirectory()
        let folder = directory.url.appendingPathComponent("postbacks/2023-11-14")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let segment = folder.appendingPathComponent("test-b-20231114T221320Z-1.jsonl")
        let example = try #require(try exampleLines().first)
        let content = example + [10] + example.prefix(10)
        try Data(content).write(to: segment)
        let timesURL = URL(fileURLWithPath: ReceiptTimes.path(besides: segment.path)!)
        try Data("".utf8).write(to: timesURL)
        let store = try PostbackStore(directory: directory.url.path, instance: "test")
        #expect(try store.recover().isEmpty)
        #expect(try Data(contentsOf: segment) == Data(content))
        #expect(try Data(contentsOf: timesURL).isEmpty)
        #expect(store.recoveredSegments.map(\.lines) == [1])
        #expect(store.recoveredSegments.map(\.bytes) == [example.count + 1])
    }

    /// Two receivers never share an instance name in one store; different names do.
    @Test func anInstanceNameIsLockedWhileInUse() throws {
        let directory = try TemporaryDirectory()
        let first = try PostbackStore(directory: directory.url.path, instance: "a")
        #expect(throws: PostbackStore.Failure.self) { try PostbackStore(directory: directory.url.path, instance: "a") }
        let other = try PostbackStore(directory: directory.url.path, instance: "b")
        _ = (first, other)
    }

    /// A FIFO named like a segment would block a read forever: recovery skips it and says so.
    @Test func aFIFOInTheStoreDoesNotBlockTheStart() throws {
        let directory = try TemporaryDirectory()
        let folder = directory.url.appendingPathComponent("postbacks/2023-11-14")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fifo = folder.appendingPathComponent("test-20231114T221320Z-1.jsonl").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let store = try PostbackStore(directory: directory.url.path, instance: "test")
        #expect(try store.recover().isEmpty)
        #expect(store.skippedFiles == [fifo])
        #expect(store.recoveredSegments.isEmpty)
    }

    @Test func segmentNamesAreRead() {
        let parsed = SegmentName("eu-1-20231114T221320Z-12.jsonl")
        #expect(parsed == SegmentName(instance: "eu-1", opened: 1_700_000_000, number: 12))
        #expect(SegmentName("20231114T221320Z-1.jsonl") == nil)
        #expect(SegmentName("a-20231314T221320Z-1.jsonl") == nil)
        #expect(SegmentName("a-20231114T221320Z-1.times") == nil)
    }
}
