import SkanCore
package import SkanFiles
import SkanPostbacks

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The receiver's store: append-only segment files of postbacks, one JSON object a line, each line's receipt
/// time in a `.times` file beside it. A batch is acknowledged only after it is written and fsync'ed (one
/// fsync for the whole batch: group commit). A batch that fails is cut off again, so a segment never holds a
/// line nobody was told was stored, except a line torn by a crash, which `recover()` moves to `rejects/`.
///
/// The `.times` file is fsync'ed with a batch only when the batch's second differs from that of the last
/// time made durable, so about once a second rather than with every batch. That keeps every time exact: any
/// durable line past the durable times was received in the same second as the last durable time (a batch in
/// any other second would have made its times durable), and `recover()` writes that second for it.
/// Appends run on the receiver's writer thread; `probe()` and `problem()` may be called from others: all hold
/// the store's lock.
///
///     DIR/postbacks/YYYY-MM-DD/<instance>-<opened UTC>-<n>.jsonl    the postbacks, as received
///     DIR/postbacks/YYYY-MM-DD/<instance>-<opened UTC>-<n>.times    Unix seconds of receipt, line for line
///     DIR/rejects/torn-...                                          torn tails found at start, for audit
///
/// Refused bodies are never written: a stranger must not be able to fill the disk through the public path.
package final class PostbackStore: @unchecked Sendable {
    /// Why the store cannot be used or a write did not become durable.
    package typealias Failure = FileFailure

    /// Where a batch went: bytes `start..<end` of one segment.
    package struct StoredRange: Sendable, Equatable {
        package var path: String
        package var start: Int
        package var end: Int
    }

    /// A segment as `recover()` left it.
    package struct StoredSegment: Sendable {
        package var path: String
        package var bytes: Int
        package var lines: Int
    }

    /// A torn line found at start, moved to `rejects/`.
    package struct TornTail: Sendable {
        package var segment: String
        package var offset: Int
        package var bytes: Int
        package var rejectPath: String
    }

    package let directory: String
    /// The segments found whole by `recover()`, oldest first: what was stored before this start (another
    /// receiver's up to their last whole line).
    package private(set) var recoveredSegments: [StoredSegment] = []
    /// Files named like segments that are not regular files, left alone by `recover()`.
    package private(set) var skippedFiles: [String] = []
    /// `DIR/.lock-<instance>`, locked for the life of the store: two receivers never share an instance name.
    private let instanceLock: OpenFile
    package let instance: String
    /// Segments rotate past this size.
    let segmentLimit: Int
    private var segment: OpenSegment?
    /// How many batches made their receipt times durable (the others shared the second of one that did).
    package private(set) var receiptTimeSyncs = 0
    private var opened = 0
    /// Held through every append, so that a reader never sees a batch half written or cut off again.
    private let lock = ConditionLock()

    package init(directory: String, instance: String, segmentLimit: Int = 64 << 20) throws(Failure) {
        self.directory = directory
        self.instance = instance
        self.segmentLimit = segmentLimit
        for path in [directory, directory + "/postbacks", directory + "/rejects"] {
            try DurableFiles.makeDirectory(path)
        }
        instanceLock = try OpenFile.openForUpdate(directory + "/.lock-" + instance)
        guard try instanceLock.lockExclusively() else {
            throw Failure(
                "another skanc serve with --instance \(instance) is using the store \(directory): give "
                    + "each receiver sharing a store its own --instance")
        }
        postbacksFolder = try OpenFile.openForReading(directory + "/postbacks")
        guard let identity = postbacksFolder.identity else {
            throw Failure("cannot read \(directory)/postbacks (\(systemReason()))")
        }
        self.identity = identity
        try DurableFiles.checkWritable(directory + "/postbacks")
    }

    /// `DIR/postbacks` as opened at start, held open so that its inode number cannot be reused, and its device and
    /// inode: a store deleted or replaced under the receiver (whose open segment then names an unlinked file) is
    /// told apart from the one it opened.
    private let postbacksFolder: OpenFile
    private let identity: FileIdentity

    /// A failure every write and probe reports instead of touching the disk (the lock held): how the tests make
    /// a disk full without filling one.
    var injectedFailure: String?

    /// Sets `injectedFailure`, from any thread.
    func inject(failure: String?) { lock.holding { injectedFailure = failure } }

    /// The path `DIR/postbacks`, and when it was last compared with `identity`: at most every 50 ms while batches
    /// come (a `stat` a batch cost 5% of the writer); a deleted segment is seen by every batch (its link count).
    private lazy var postbacksPath = directory + "/postbacks"
    private var identityCheckedAt = -Double.infinity

    /// Why the store cannot take a batch now (deleted or replaced), or nil.
    private func checkIdentity(of current: OpenSegment?) -> String? {
        if let injectedFailure { return injectedFailure }
        let now = Clock.now()
        if current == nil || now - identityCheckedAt >= 0.05 {
            guard FileIdentity(path: postbacksPath) == identity else {
                return
                    "the store \(directory) was deleted or replaced since skanc serve started; restart it on the store"
            }
            identityCheckedAt = now
        }
        if let current, current.data.linkCount == 0 {
            return "the segment \(current.path) was deleted; restart skanc serve"
        }
        return nil
    }

    /// Moves a torn last line of every segment to `rejects/`, so that every stored line is whole, and reports
    /// each; cuts `.times` lines past the segment's lines and writes the receipt times a crash left unwritten
    /// (each the second of the last time written, as the store's rule makes them).
    package func recover() throws(Failure) -> [TornTail] {
        var torn: [TornTail] = []
        recoveredSegments = []
        skippedFiles = []
        for day in DurableFiles.entries(of: directory + "/postbacks").sorted() {
            let folder = directory + "/postbacks/" + day
            for name in DurableFiles.entries(of: folder).sorted() where name.hasSuffix(".jsonl") {
                let path = folder + "/" + name
                // A FIFO or device named like a segment would block the start (or never end): not a segment.
                guard DurableFiles.isRegularFile(path) else {
                    skippedFiles.append(path)
                    continue
                }
                let bytes = try DurableFiles.contents(path)
                let whole = (bytes.lastIndex(of: 10).map { $0 + 1 }) ?? 0
                let lines = bytes[..<whole].count { $0 == 10 }
                recoveredSegments.append(StoredSegment(path: path, bytes: whole, lines: lines))
                // Another receiver's segment may be mid-batch right now: only its own are cut or completed.
                guard let segmentName = SegmentName(name), segmentName.instance == instance else { continue }
                if whole < bytes.count {
                    let reject = directory + "/rejects/torn-\(day)-\(name)@\(whole)"
                    try DurableFiles.write(Array(bytes[whole...]), to: reject)
                    try DurableFiles.replaceTail(of: path, from: whole)
                    torn.append(TornTail(segment: path, offset: whole, bytes: bytes.count - whole, rejectPath: reject))
                }
                try Self.recoverTimes(ReceiptTimes.path(besides: path)!, lines: lines, opened: segmentName.opened)
            }
        }
        return torn
    }

    /// Appends `bodies` (each one JSON object with no line break) with `receivedAt` (Unix seconds) and makes
    /// them durable; on any failure nothing of the batch stays and the error says why. Returns where the
    /// batch now is.
    @discardableResult
    package func append(_ bodies: [[UInt8]], receivedAt: Int) throws(Failure) -> StoredRange? {
        guard !bodies.isEmpty else { return nil }
        lock.acquire()
        defer { lock.release() }
        if let failure = checkIdentity(of: segment) {
            closeSegment()
            throw Failure(failure)
        }
        let day = UTCTime.day(receivedAt)
        if let current = segment, current.day != day || current.size >= segmentLimit { closeSegment() }
        if segment == nil { try openSegment(day: day, at: receivedAt) }
        guard let current = segment else { return nil }
        var data: [UInt8] = []
        data.reserveCapacity(bodies.reduce(0) { $0 + $1.count + 1 })
        for body in bodies {
            data += body
            data.append(10)
        }
        let times = Array(String(repeating: ReceiptTimes.line(receivedAt), count: bodies.count).utf8)
        let syncsTimes = current.durableSecond != receivedAt
        let failure =
            current.data.append(data) ?? current.times.append(times) ?? current.data.sync()
            ?? (syncsTimes ? current.times.sync() : nil)
        if let failure {
            // Cut the batch off again (appends then go on from there); a segment that cannot be cut is closed,
            // its torn tail left for `recover()`.
            if !current.data.cut(to: current.size) || !current.times.cut(to: current.timesSize) { closeSegment() }
            throw Failure(failure)
        }
        segment?.size += data.count
        segment?.timesSize += times.count
        if syncsTimes {
            segment?.durableSecond = receivedAt
            receiptTimeSyncs += 1
        }
        return StoredRange(path: current.path, start: current.size, end: current.size + data.count)
    }

    /// Whether the store takes a write now: its identity unchanged, and a small file written, fsync'ed and
    /// removed in it (what a full disk or a read-only remount refuses).
    package func probe() -> Bool {
        guard lock.holding({ checkIdentity(of: segment) }) == nil else { return false }
        let path = directory + "/postbacks/.probe-\(instance)"
        defer { DurableFiles.remove(path) }
        return (try? DurableFiles.write([UInt8](repeating: 10, count: 4096), to: path)) != nil
    }

    /// Why the store cannot take a write now (deleted or replaced), or nil.
    package func problem() -> String? {
        lock.holding { checkIdentity(of: segment) }
    }

    /// Bytes free for an unprivileged writer on the store's file system (`statvfs`), or nil when it cannot be
    /// told: what an alert watches before the disk fills.
    package func availableBytes() -> Int? {
        DurableFiles.availableBytes(at: directory)
    }

    /// Every segment stored, oldest day first.
    package func segments() -> [String] {
        DurableFiles.entries(of: directory + "/postbacks").sorted().flatMap { day in
            DurableFiles.entries(of: directory + "/postbacks/" + day).sorted().filter { $0.hasSuffix(".jsonl") }
                .map { directory + "/postbacks/" + day + "/" + $0 }
        }
    }

    private func openSegment(day: String, at time: Int) throws(Failure) {
        let folder = directory + "/postbacks/" + day
        // A new day's folder is durable only once `postbacks/` is: a crash must not lose the folder of a
        // segment whose lines were acknowledged.
        if try DurableFiles.makeDirectory(folder), let failure = DurableFiles.syncDirectory(directory + "/postbacks") {
            throw Failure("cannot make \(folder) durable (\(failure))")
        }
        // A name is never reused: a receiver restarted within the same second takes the next number.
        var data: OpenFile?
        while data == nil {
            opened += 1
            data = try OpenFile.createForAppending(folder + "/\(instance)-\(UTCTime.stamp(time))-\(opened).jsonl")
        }
        guard let data else { return }
        let timesPath = ReceiptTimes.path(besides: data.path)!
        guard let times = try OpenFile.createForAppending(timesPath) else {
            throw Failure("cannot create \(timesPath) (\(systemReason(EEXIST)))")
        }
        // The new names are durable only once their directory is.
        _ = DurableFiles.syncDirectory(folder)
        segment = OpenSegment(path: data.path, data: data, times: times, day: day)
    }

    /// Closes the segment's files (their `OpenFile`s are released).
    private func closeSegment() {
        segment = nil
    }
}

/// The segment being appended to.
private struct OpenSegment {
    var path: String
    var data: OpenFile
    var times: OpenFile
    var day: String
    /// Bytes of whole batches in each file.
    var size = 0
    var timesSize = 0
    /// The receipt second of the last batch whose times were fsync'ed; nil before the first.
    var durableSecond: Int?
}
